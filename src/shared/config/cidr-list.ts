import { isIP } from 'node:net';

/** The entries of a comma-separated list of addresses and CIDR ranges (TRUST_PROXY). */
export function cidrList(value: string): string[] {
  return value.split(',').map((item) => item.trim());
}

export function isCidr(item: string): boolean {
  const [address = '', prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length) return false;
  return prefix === undefined || (/^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}
