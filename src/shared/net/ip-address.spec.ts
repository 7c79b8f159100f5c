import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientAddressGroup } from './ip-address.js';

describe('clientAddressGroup: the client a source address stands for', () => {
  it('groups every IPv6 address of one /64, however it is written', () => {
    const group = '2001:db8:1:2::/64';
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:DB8:1:2:0:0:0:9', '2001:0db8:0001:0002:a:b:c:d', '2001:db8:1:2::a:b', '2001:db8:1:2::1%eth0']) {
      assert.equal(clientAddressGroup(address), group, address);
    }
  });

  it('tells apart the /64s next to each other', () => {
    assert.equal(clientAddressGroup('2001:db8:1:3::1'), '2001:db8:1:3::/64');
    assert.equal(clientAddressGroup('2001:db8:0:1:2:3:4:5'), '2001:db8:0:1::/64');
    assert.equal(clientAddressGroup('2001:db8::1:2:3:4:5'), '2001:db8:0:1::/64', 'a compressed run of one zero word');
    assert.equal(clientAddressGroup('2001:db8::1'), '2001:db8::/64');
    assert.equal(clientAddressGroup('::1'), '::/64');
    assert.equal(clientAddressGroup('1:2:3:4:5:6:7:8'), '1:2:3:4::/64');
    assert.equal(clientAddressGroup('fe80::1%eth0'), 'fe80::/64');
  });

  it('groups a /48 when asked to, IPv4 still alone', () => {
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:ffff::9', '2001:db8:1::1']) assert.equal(clientAddressGroup(address, 48), '2001:db8:1::/48', address);
    assert.equal(clientAddressGroup('2001:db8:2::1', 48), '2001:db8:2::/48');
    assert.equal(clientAddressGroup('192.0.2.1', 48), '192.0.2.1');
  });

  it('keeps every IPv4 address alone, also IPv4-mapped (dotted or in hex)', () => {
    assert.equal(clientAddressGroup('192.0.2.1'), '192.0.2.1');
    assert.equal(clientAddressGroup('192.0.2.2'), '192.0.2.2');
    assert.equal(clientAddressGroup('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(clientAddressGroup('::FFFF:c000:201'), '192.0.2.1');
  });

  it('leaves what is not an IP address as it is', () => {
    for (const address of ['', 'localhost', '2001:db8::1::2', '192.0.2.256']) assert.equal(clientAddressGroup(address), address);
  });
});
