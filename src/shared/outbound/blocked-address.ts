import { BlockList } from 'node:net';
import { parseIpAddress } from '../net/ip-address.js';

/**
 * Addresses an outbound request must not reach unless OUTBOUND_ALLOW_PRIVATE=true: loopback,
 * private, carrier-grade NAT (Alibaba's metadata service is 100.100.100.200), link-local (cloud
 * metadata lives at 169.254.169.254 and fd00:ec2::254), multicast, documentation and reserved
 * ranges, for IPv4 and IPv6.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv4');

/**
 * The IPv6 ranges that embed or reach an IPv4 address are refused whole, whatever IPv4 address
 * they carry: a translator or a relay on the way may deliver them to an internal IPv4 host, and
 * no public service needs to be called through them. IPv4-mapped `::ffff:a.b.c.d` is the one
 * exception (it is how a dual-stack socket spells a plain IPv4 address), so it is judged by the
 * IPv4 address it carries.
 */
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible ::a.b.c.d (deprecated)
  ['::ffff:0:0:0', 96], // IPv4-translated (RFC 2765)
  ['64:ff9b::', 96], // NAT64, well-known prefix (RFC 6052)
  ['64:ff9b:1::', 48], // NAT64, local use (RFC 8215)
  ['100::', 64], // discard only
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique local (fd00:ec2::254 is AWS's metadata service)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) BLOCKED.addSubnet(net, prefix, 'ipv6');

/** True when `address` is not an IP address, or is one in a refused range. */
export function isBlockedAddress(address: string): boolean {
  const ip = parseIpAddress(address);
  if (!ip) return true;
  return BLOCKED.check(ip.address, ip.family === 4 ? 'ipv4' : 'ipv6');
}
