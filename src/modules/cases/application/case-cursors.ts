import { CASE_SORTS, type CaseSortName, DEFAULT_CASE_SORT, type FeedCursor, type FeedPosition, type ListPosition } from './case-queries.js';

/**
 * Cursors are opaque to clients: a position as text behind base64url, so nobody builds one by
 * hand and the format may change. Decoding is strict (only the canonical text of a valid
 * position), so a cursor either names a position or is refused as malformed.
 */

const LIST = /^l\.(?:(-?[a-z_]{1,11})\.)?(-?[0-9]{1,19})\.([0-9]{1,19})$/;
const SEARCH = /^s\.([1-9])\.(-?[0-9]{1,19})\.([0-9]{1,19})$/;
const TIMELINE = /^t\.([0-9]{1,19})$/;
const RUNS = /^r\.([0-9]{1,19})$/;
const FEED = /^c\.([0-9]{1,20})\.([0-9]{1,19})\.([0-9]{1,19})$/;
/** Cursors issued before purges were counted (`f.`, with an xmin where the count is now): read as having seen none. */
const LEGACY_FEED = /^f\.([0-9]{1,20})\.([0-9]{1,19})\.([0-9]{1,20})$/;
const MAX_INT8 = 2n ** 63n - 1n;
const MAX_XID8 = 2n ** 64n - 1n;
/** Microseconds since 1970 of 0001-01-01 and of the last moment of 9999: every case's creation time, and times Postgres can hold. */
const MIN_MICROS = -62_135_596_800_000_000n;
const MAX_MICROS = 253_402_300_799_999_999n;

/** Where the feed starts without a cursor: before every transaction. */
export const FEED_START: FeedPosition = { xid: '0', id: '0' };

/** The newest-first order's cursors name no order: they are what this list's cursors were before it had others. */
export function listCursor(position: ListPosition): string {
  const sort = position.sort === DEFAULT_CASE_SORT ? '' : `${position.sort}.`;
  return encode(`l.${sort}${position.value}.${position.id}`);
}

export function feedCursor(cursor: FeedCursor): string {
  return encode(`c.${cursor.after.xid}.${cursor.after.id}.${cursor.purgesSeen}`);
}

/** The cursor after a feed page: its last change, or `after` itself (the very same text) when it had none, so a cursor only moves forward. */
export function nextFeedCursor(after: string | null, page: { changed: readonly { position: FeedPosition }[]; purgesSeen: string }): string {
  const last = page.changed.at(-1);
  if (last) return feedCursor({ after: last.position, purgesSeen: page.purgesSeen });
  return after ?? feedCursor({ after: FEED_START, purgesSeen: page.purgesSeen });
}

/** The position a list cursor names (with the order it was read in), or undefined when it is not one this service made. */
export function readListCursor(cursor: string): ListPosition | undefined {
  const match = LIST.exec(decode(cursor));
  const sort = (match?.[1] ?? DEFAULT_CASE_SORT) as CaseSortName;
  if (!match || !CASE_SORTS.includes(sort)) return undefined;
  const [min, max] = sort.endsWith('priority') ? [0n, 3n] : [MIN_MICROS, MAX_MICROS];
  if (!canonical(match[2]!, min, max) || !canonical(match[3]!, 0n, MAX_INT8)) return undefined;
  const position = { sort, value: match[2]!, id: match[3]! };
  return listCursor(position) === cursor ? position : undefined;
}

/** A position in a text search's order: its relevance tier's rank (higher first), then newest first. */
export interface SearchPosition extends ListPosition {
  rank: number;
}

export function searchCursor(position: SearchPosition): string {
  return encode(`s.${position.rank}.${position.value}.${position.id}`);
}

/** The position a search cursor names, or undefined when it is not one this service made. */
export function readSearchCursor(cursor: string): SearchPosition | undefined {
  const match = SEARCH.exec(decode(cursor));
  if (!match || !canonical(match[2]!, MIN_MICROS, MAX_MICROS) || !canonical(match[3]!, 0n, MAX_INT8)) return undefined;
  const position = { rank: Number(match[1]), sort: DEFAULT_CASE_SORT, value: match[2]!, id: match[3]! };
  return searchCursor(position) === cursor ? position : undefined;
}

/** A timeline page starts after the event `afterId` (decimal text). */
export function timelineCursor(afterId: string): string {
  return encode(`t.${afterId}`);
}

/** The event id a timeline cursor names, or undefined when it is not one this service made. */
export function readTimelineCursor(cursor: string): string | undefined {
  const match = TIMELINE.exec(decode(cursor));
  return match && canonical(match[1]!, 0n, MAX_INT8) && timelineCursor(match[1]!) === cursor ? match[1] : undefined;
}

/** A page of a case's runs starts after the run `afterId` (decimal text). */
export function runsCursor(afterId: string): string {
  return encode(`r.${afterId}`);
}

/** The run id a runs cursor names, or undefined when it is not one this service made. */
export function readRunsCursor(cursor: string): string | undefined {
  const match = RUNS.exec(decode(cursor));
  return match && canonical(match[1]!, 0n, MAX_INT8) && runsCursor(match[1]!) === cursor ? match[1] : undefined;
}

/** What a feed cursor holds, or undefined when it is not one this service made. */
export function readFeedCursor(text: string): FeedCursor | undefined {
  const decoded = decode(text);
  const match = FEED.exec(decoded);
  if (match) {
    if (!canonical(match[1]!, 0n, MAX_XID8) || !canonical(match[2]!, 0n, MAX_INT8) || !canonical(match[3]!, 0n, MAX_INT8)) return undefined;
    const cursor = { after: { xid: match[1]!, id: match[2]! }, purgesSeen: match[3]! };
    return feedCursor(cursor) === text ? cursor : undefined;
  }
  const legacy = LEGACY_FEED.exec(decoded);
  if (!legacy || !canonical(legacy[1]!, 0n, MAX_XID8) || !canonical(legacy[2]!, 0n, MAX_INT8) || !canonical(legacy[3]!, 0n, MAX_XID8)) return undefined;
  return encode(decoded) === text ? { after: { xid: legacy[1]!, id: legacy[2]! }, purgesSeen: '0' } : undefined;
}

function encode(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function decode(cursor: string): string {
  return cursor.length <= 88 && /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('latin1') : '';
}

/** Decimal text as written by BigInt (no leading zero, no "-0") within [min, max]. */
function canonical(text: string, min: bigint, max: bigint): boolean {
  const value = BigInt(text);
  return String(value) === text && value >= min && value <= max;
}
