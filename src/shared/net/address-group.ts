import { isIPv6 } from 'node:net';

/**
 * The group an address's limits count against: an IPv4 address alone (an IPv4-mapped IPv6
 * address is its IPv4 address), an IPv6 address by its /64, which one subscriber usually holds
 * whole: counted alone, every address of it would get a limit of its own.
 */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  return `${expandedGroups(address.split('%')[0]!).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros (an embedded IPv4 tail fills the last two). */
function expandedGroups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const words = (part: string) => (part ? part.split(':').flatMap(ipv4Words) : []);
  const left = words(head);
  const right = tail === undefined ? [] : words(tail);
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((group) => Number.parseInt(group, 16).toString(16));
}

function ipv4Words(group: string): string[] {
  if (!group.includes('.')) return [group];
  const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
