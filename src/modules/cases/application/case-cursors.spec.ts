import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FEED_START, feedCursor, listCursor, nextFeedCursor, readFeedCursor, readListCursor, readRunsCursor, readTimelineCursor, runsCursor, timelineCursor } from './case-cursors.js';

const raw = (text: string) => Buffer.from(text).toString('base64url');

describe('case cursors', () => {
  it('read back exactly the position they were made from', () => {
    const list = { sort: '-created_at', value: '-2177452799999999', id: '9007199254740991' } as const;
    assert.deepEqual(readListCursor(listCursor(list)), list);
    for (const sort of ['created_at', '-updated_at', 'priority'] as const) {
      const position = { sort, value: '3', id: '7' };
      assert.deepEqual(readListCursor(listCursor(position)), position);
    }
    assert.equal(Buffer.from(listCursor(list), 'base64url').toString(), 'l.-2177452799999999.9007199254740991', 'newest-first cursors read as before');
    const feed = { after: { xid: '18446744073709551615', id: '9223372036854775807' }, purgesSeen: '9223372036854775807' };
    assert.deepEqual(readFeedCursor(feedCursor(feed)), feed);
    assert.deepEqual(readFeedCursor(feedCursor({ after: FEED_START, purgesSeen: '0' })), { after: FEED_START, purgesSeen: '0' });
  });

  it('read a feed cursor issued before purges were counted as having seen none', () => {
    assert.deepEqual(readFeedCursor(raw('f.18446744073709551615.42.730')), { after: { xid: '18446744073709551615', id: '42' }, purgesSeen: '0' });
    assert.deepEqual(readFeedCursor(raw('f.0.0.0')), { after: FEED_START, purgesSeen: '0' });
  });

  it('after a feed page: its last change with the purges it saw, else the cursor given, the very same text', () => {
    const changed = [{ position: { xid: '9', id: '3' } }, { position: { xid: '12', id: '1' } }];
    assert.deepEqual(readFeedCursor(nextFeedCursor(null, { changed, purgesSeen: '4' })), { after: { xid: '12', id: '1' }, purgesSeen: '4' });
    const legacy = raw('f.7.7.7');
    assert.equal(nextFeedCursor(legacy, { changed: [], purgesSeen: '4' }), legacy);
    assert.deepEqual(readFeedCursor(nextFeedCursor(null, { changed: [], purgesSeen: '4' })), { after: FEED_START, purgesSeen: '4' });
  });

  it('are opaque text of one kind each: a list cursor is no feed cursor and the reverse', () => {
    const list = listCursor({ sort: '-created_at', value: '1', id: '1' });
    const feed = feedCursor({ after: { xid: '1', id: '1' }, purgesSeen: '1' });
    assert.match(list, /^[A-Za-z0-9_-]+$/);
    assert.equal(readFeedCursor(list), undefined);
    assert.equal(readListCursor(feed), undefined);
  });

  it('refuse anything but the canonical text of a valid position', () => {
    for (const text of ['', 'abc', '-1', '12', raw('l.1.1 '), raw('l.01.1'), raw('l.-0.1'), raw('l.1.-1'), raw('l.1'), raw('l.9223372036854775808.1'), raw('l.-300000000000000000.1'), raw('l.253402300800000000.1'), raw('l.priority.4.1'), raw('l.-priority.-1.1'), raw('l.subject.1.1'), raw('l.-created_at.1.1'), `${listCursor({ sort: '-created_at', value: '1', id: '1' })}=`, 'l.1.1']) {
      assert.equal(readListCursor(text), undefined, text);
    }
    const malformed = (kind: string) => [
      raw(`${kind}.1.1`), raw(`${kind}.1.1.1.1`), raw(`${kind}.18446744073709551616.1.0`), raw(`${kind}.01.1.0`), raw(`${kind}.1.-1.0`), raw(`${kind}.1.1.0\n`), `${raw(`${kind}.1.1.0`)}.`, `${raw(`${kind}.1.1.0`)}=`,
    ];
    for (const text of ['', ...malformed('c'), ...malformed('f'), raw('c.1.1.9223372036854775808'), raw('f.1.1.18446744073709551616'), raw('e.1.1.0'), `${feedCursor({ after: FEED_START, purgesSeen: '5' })}.`, 'x'.repeat(89)]) {
      assert.equal(readFeedCursor(text), undefined, text);
    }
  });

  it('name a run for a case\'s runs, and nothing else: not a timeline event, not a non-canonical or out-of-range id', () => {
    assert.equal(readRunsCursor(runsCursor('9223372036854775807')), '9223372036854775807');
    assert.equal(readRunsCursor(timelineCursor('5')), undefined);
    assert.equal(readTimelineCursor(runsCursor('5')), undefined);
    for (const text of ['r.05', 'r.-1', 'r.9223372036854775808', 'r.', 'r.1 ']) assert.equal(readRunsCursor(raw(text)), undefined, text);
  });
});
