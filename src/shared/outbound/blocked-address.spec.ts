import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isBlockedAddress } from './blocked-address.js';

/** Each case: the address, and why it must (or must not) be refused. */
function assertAll(expected: boolean, cases: ReadonlyArray<readonly [string, string]>): void {
  const wrong = cases.filter(([address]) => isBlockedAddress(address) !== expected).map(([address, why]) => `${address} (${why})`);
  assert.deepEqual(wrong, [], `${expected ? 'not refused' : 'refused'}: ${wrong.join(', ')}`);
}

describe('isBlockedAddress', () => {
  it('refuses IPv4-compatible ::a.b.c.d in every spelling', () => {
    assertAll(true, [
      ['::127.0.0.1', 'compatible, dotted'],
      ['::7f00:1', 'compatible, hex'],
      ['0:0:0:0:0:0:7f00:1', 'compatible, uncompressed'],
      ['::8.8.8.8', 'compatible form of a public address: deprecated, never needed'],
      ['::a9fe:a9fe', 'compatible metadata address'],
    ]);
  });

  it('refuses NAT64 (well-known and local-use prefixes), 6to4 and Teredo addresses', () => {
    assertAll(true, [
      ['64:ff9b::127.0.0.1', 'NAT64 well-known prefix, dotted loopback'],
      ['64:ff9b::7f00:1', 'NAT64 well-known prefix, hex loopback'],
      ['64:ff9b::a9fe:a9fe', 'NAT64 of 169.254.169.254'],
      ['64:ff9b::808:808', 'NAT64 of a public address: refused whole'],
      ['64:ff9b:1::a00:1', 'NAT64 local-use prefix'],
      ['64:ff9b:1:ffff::7f00:1', 'NAT64 local-use prefix, any suffix'],
      ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
      ['2002:a9fe:a9fe::', '6to4 of 169.254.169.254'],
      ['2002:808:808::1', '6to4 of a public address'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
      ['2001::1', 'Teredo, short'],
    ]);
  });

  it('judges IPv4-mapped ::ffff:a.b.c.d by the IPv4 address it carries, in every spelling', () => {
    assertAll(true, [
      ['::ffff:127.0.0.1', 'mapped loopback, dotted'],
      ['::ffff:7f00:1', 'mapped loopback, hex'],
      ['::FFFF:7F00:0001', 'mapped loopback, upper case, leading zeros'],
      ['0:0:0:0:0:ffff:7f00:1', 'mapped loopback, uncompressed'],
      ['::ffff:a9fe:a9fe', 'mapped 169.254.169.254'],
      ['::ffff:10.1.2.3', 'mapped private'],
      ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
    ]);
    assertAll(false, [
      ['::ffff:8.8.8.8', 'mapped public, dotted'],
      ['::ffff:808:808', 'mapped public, hex'],
    ]);
  });

  it('refuses cloud metadata addresses', () => {
    assertAll(true, [
      ['169.254.169.254', 'AWS, GCP, Azure, OpenStack'],
      ['fd00:ec2::254', 'AWS over IPv6'],
      ['100.100.100.200', 'Alibaba Cloud (carrier-grade NAT range)'],
      ['169.254.170.2', 'AWS ECS task metadata'],
    ]);
  });

  it('refuses loopback, private, link-local, multicast and reserved addresses, IPv6 with a zone too', () => {
    assertAll(true, [
      ['127.0.0.1', 'loopback'], ['127.255.255.254', 'loopback /8'], ['0.0.0.0', 'this host'], ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'], ['192.168.1.1', 'private'], ['100.64.0.1', 'carrier-grade NAT'], ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'broadcast'], ['192.88.99.1', '6to4 relay anycast'],
      ['::1', 'loopback'], ['::', 'unspecified'], ['fe80::1', 'link-local'], ['fe80::1%eth0', 'link-local with a zone'],
      ['fc00::1', 'unique local'], ['fd12:3456::1', 'unique local'], ['fec0::1', 'site-local'], ['ff02::1', 'multicast'],
      ['100::1', 'discard'], ['2001:db8::1', 'documentation'],
      ['localhost', 'not an IP address'], ['', 'empty'],
    ]);
  });

  it('lets public IPv4 and IPv6 addresses through', () => {
    assertAll(false, [
      ['8.8.8.8', 'public'], ['93.184.215.14', 'public'], ['100.63.255.255', 'just below carrier-grade NAT'], ['172.32.0.1', 'just above 172.16/12'],
      ['2606:4700:4700::1111', 'public IPv6'], ['2a00:1450:4001::200e', 'public IPv6'], ['2001:4860:4860::8888', 'public, outside Teredo 2001::/32'],
    ]);
  });
});
