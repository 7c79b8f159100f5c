import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressGroup } from './address-group.js';

describe('addressGroup', () => {
  it('an IPv4 address is its own group, mapped into IPv6 or not', () => {
    assert.equal(addressGroup('192.0.2.7'), '192.0.2.7');
    assert.equal(addressGroup('::ffff:192.0.2.7'), '192.0.2.7');
    assert.notEqual(addressGroup('192.0.2.8'), addressGroup('192.0.2.7'));
  });

  it('every address of one IPv6 /64 is one group, however it is written; another /64 is another', () => {
    const group = addressGroup('2001:db8:1:2::1');
    for (const address of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2::192.0.2.1', 'fe80::1%eth0'.replace('fe80::', '2001:db8:1:2::')]) {
      assert.equal(addressGroup(address), group, address);
    }
    assert.equal(group, '2001:db8:1:2::/64');
    assert.notEqual(addressGroup('2001:db8:1:3::1'), group);
    assert.equal(addressGroup('::1'), '0:0:0:0::/64');
  });
});
