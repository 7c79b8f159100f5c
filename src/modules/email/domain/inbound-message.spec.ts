import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { caseSubject, type InboundMessage, MAX_FILENAME_CHARS, storableFilename } from './inbound-message.js';

const chars = (text: string) => Array.from(text).length;

describe('inbound message', () => {
  it('cuts an attachment name to 255 characters before its extension, never inside a surrogate pair', () => {
    assert.equal(storableFilename(null), null);
    assert.equal(storableFilename(`${'a'.repeat(251)}.pdf`), `${'a'.repeat(251)}.pdf`);
    assert.equal(storableFilename(`${'a'.repeat(16_000)}.pdf`), `${'a'.repeat(251)}.pdf`);
    // 😀 is two UTF-16 units: a cut by units would leave half of one at the end.
    const emoji = storableFilename(`${'😀'.repeat(300)}.txt`)!;
    assert.equal(emoji, `${'😀'.repeat(251)}.txt`);
    assert.doesNotMatch(emoji, /\p{Cs}/u);
    // No extension a program would go by: the name is simply cut.
    assert.equal(storableFilename(`x.${'b'.repeat(400)}`), `x.${'b'.repeat(253)}`);
    assert.equal(storableFilename(`.${'c'.repeat(400)}`), `.${'c'.repeat(254)}`);
    for (const name of [`${'é'.repeat(999)}.tar.gz`, `${'😀'.repeat(300)}x`, 'a'.repeat(256)]) assert.equal(chars(storableFilename(name)!), MAX_FILENAME_CHARS);
  });

  it('cuts the case subject to 1,000 characters, trimmed first', () => {
    const message = (subject: string | null) => ({ subject }) as InboundMessage;
    assert.equal(caseSubject(message('  hello  ')), 'hello');
    assert.equal(caseSubject(message('   ')), null);
    assert.equal(caseSubject(message(null)), null);
    assert.equal(caseSubject(message(` ${'😀'.repeat(128 * 1024)}`)), '😀'.repeat(1000));
  });
});
