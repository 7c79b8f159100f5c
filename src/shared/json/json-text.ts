/**
 * Helpers over JSON *text*. The service keeps the exact text a client sent (numbers beyond
 * 2^53, long decimals, `__proto__` keys) and hands it to Postgres as is; parsed values are
 * used only to validate.
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACE = 0x7d;
export const CLOSE_BRACKET = 0x5d;
export const COLON = 0x3a;
export const COMMA = 0x2c;

/** True when `text` (valid JSON) nests objects and arrays deeper than `limit`. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * The exact text of a top-level member's value in `text`, a valid JSON object
 * (the last one when the key repeats, as JSON.parse does), or undefined when absent.
 */
export function memberText(text: string, key: string): string | undefined {
  let found: string | undefined;
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = endOfString(text, i);
      if (depth === 1 && expectKey) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (name === key) {
          const valueStart = skipToValue(text, end + 1);
          const valueEnd = endOfValue(text, valueStart);
          found = text.slice(valueStart, valueEnd);
          i = valueEnd - 1;
          expectKey = false;
          continue;
        }
        expectKey = false;
      }
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      expectKey = depth === 1;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    } else if (c === COMMA && depth === 1) {
      expectKey = true;
    }
  }
  return found;
}

/**
 * The exact text of the value `tokens` (a decoded JSON Pointer) point at in `text`, valid JSON,
 * or undefined when there is none: members as `memberText` finds them, array elements by index
 * (`0`, `12`; never `-` or a leading zero).
 */
export function textAt(text: string, tokens: readonly string[]): string | undefined {
  let current: string | undefined = text.trim();
  for (const token of tokens) {
    const c = current.charCodeAt(0);
    if (c === OPEN_BRACE) current = memberText(current, token);
    else if (c === OPEN_BRACKET && /^(0|[1-9][0-9]{0,8})$/.test(token)) current = elementText(current, Number(token));
    else return undefined;
    if (current === undefined) return undefined;
  }
  return current;
}

/** The exact text of element `index` of `text`, the text of a JSON array; undefined past its end. */
function elementText(text: string, index: number): string | undefined {
  let i = skipWhitespace(text, 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return undefined;
  for (let n = 0; ; n++) {
    const end = endOfValue(text, i);
    if (n === index) return text.slice(i, end);
    i = skipWhitespace(text, end);
    if (text.charCodeAt(i) !== COMMA) return undefined;
    i = skipWhitespace(text, i + 1);
  }
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

/** Index of the quote closing the string that opens at `start`. */
export function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return text.length;
}

/** `\u` escapes in valid JSON text; a backslash outside a string cannot occur, so every match is an escape. */
const ESCAPE = /\\(?:u([0-9a-fA-F]{4})|.)/g;

/**
 * True when `text` (valid JSON) escapes a character Postgres' jsonb refuses: `\u0000`, or a
 * surrogate escape without its pair (a high one not followed by a low one, or a low one alone).
 * A scan of the escapes only; text without `\u` is not scanned.
 */
export function hasUnstorableEscape(text: string): boolean {
  if (!text.includes('\\u')) return false;
  let highAt = -1;
  for (const match of text.matchAll(ESCAPE)) {
    const code = match[1] === undefined ? -1 : parseInt(match[1], 16);
    const pairsHigh = highAt >= 0 && match.index === highAt && code >= 0xdc00 && code <= 0xdfff;
    if (highAt >= 0 && !pairsHigh) return true;
    highAt = -1;
    if (code === 0) return true;
    if (code >= 0xd800 && code <= 0xdbff) highAt = match.index + match[0].length;
    else if (code >= 0xdc00 && code <= 0xdfff && !pairsHigh) return true;
  }
  return highAt >= 0;
}

function skipToValue(text: string, from: number): number {
  let i = from;
  while (text.charCodeAt(i) !== COLON) i++;
  i++;
  while (/\s/.test(text[i]!)) i++;
  return i;
}

/** Index just past the value starting at `start`. */
function endOfValue(text: string, start: number): number {
  const c = text.charCodeAt(start);
  if (c === QUOTE) return endOfString(text, start) + 1;
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === QUOTE) i = endOfString(text, i);
      else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if ((d === CLOSE_BRACE || d === CLOSE_BRACKET) && --depth === 0) return i + 1;
    }
    return text.length;
  }
  let i = start;
  while (i < text.length && !/[\s,}\]]/.test(text[i]!)) i++;
  return i;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
