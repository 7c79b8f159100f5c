import { isIP } from 'node:net';

export interface IpAddress {
  family: 4 | 6;
  /** IPv4 dotted, or IPv6 as the URL parser writes it: lower case, `::` compressed, no zone. */
  address: string;
}

/**
 * An IP address as the checks on it judge it; undefined when `address` is none. A zone
 * (`fe80::1%eth0`) only says which interface, so it goes. An IPv4-mapped `::ffff:a.b.c.d` is
 * how a dual-stack socket spells a plain IPv4 address, so it is that IPv4 address.
 */
export function parseIpAddress(address: string): IpAddress | undefined {
  const family = isIP(address);
  if (family === 4) return { family, address };
  if (family !== 6) return undefined;
  const canonical = canonicalIpv6(address.replace(/%.*$/, ''));
  if (canonical === undefined) return undefined;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  return mapped ? { family: 4, address: ipv4FromWords(mapped[1]!, mapped[2]!) } : { family: 6, address: canonical };
}

/**
 * The client a source address stands for, as limits per address count it. One IPv6 subscriber
 * gets a whole /64 and picks any address in it at will, so all addresses of a /64 are one client
 * (`2001:db8:1:2::/64`); where one client may hold a whole site's allocation, `ipv6Bits` 48
 * groups a /48. An IPv4 address is a client of its own, IPv4-mapped or not. Anything that is not
 * an IP address stays as it is.
 */
export function clientAddressGroup(address: string, ipv6Bits: 48 | 64 = 64): string {
  const ip = parseIpAddress(address);
  if (!ip) return address;
  if (ip.family === 4) return ip.address;
  const [head, tail] = ip.address.split('::').map((part) => (part === '' ? [] : part.split(':')));
  const words = tail === undefined ? head! : [...head!, ...Array<string>(8 - head!.length - tail.length).fill('0'), ...tail];
  return `${canonicalIpv6(`${words.slice(0, ipv6Bits / 16).join(':')}::`)}/${ipv6Bits}`;
}

function canonicalIpv6(address: string): string | undefined {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

function ipv4FromWords(high: string, low: string): string {
  const h = parseInt(high, 16);
  const l = parseInt(low, 16);
  return `${h >> 8}.${h & 255}.${l >> 8}.${l & 255}`;
}
