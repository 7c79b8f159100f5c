import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localPartFor, localPartHash, newLocalPart } from './inbound-address.js';

describe('inbound address', () => {
  it('a new local part is 57 lower-case base32 characters behind case-, different every time', () => {
    const parts = new Set(Array.from({ length: 50 }, () => newLocalPart()));
    assert.equal(parts.size, 50);
    for (const part of parts) assert.match(part, /^case-[a-z2-7]{52}$/);
  });

  it('finds the local part of a recipient at the inbound domain, whatever the case', () => {
    assert.equal(localPartFor('Case-ABC@Mail.Example', 'mail.example'), 'case-abc');
    assert.equal(localPartFor('"odd@local"@mail.example', 'mail.example'), '"odd@local"');
    assert.equal(localPartFor('case-abc@other.example', 'mail.example'), null);
    assert.equal(localPartFor('case-abc@mail.example.evil', 'mail.example'), null);
    assert.equal(localPartFor('@mail.example', 'mail.example'), null);
    assert.equal(localPartFor('no-domain', 'mail.example'), null);
  });

  it('hashes the local part without case', () => {
    assert.deepEqual(localPartHash('Case-ABC'), localPartHash('case-abc'));
    assert.notDeepEqual(localPartHash('case-abc'), localPartHash('case-abd'));
  });
});
