/**
 * Numbers that would be written out much longer than they were sent. Postgres keeps a jsonb
 * number as an exact decimal and writes it in plain form (no exponent), so the 8 characters
 * `1e131071` come back as 131072 on every read. A number is accepted when its plain form is at
 * most MAX_WRITTEN_CHARS characters, or no longer than its own text: long mantissas and every
 * int64 or double a normal sender writes pass; `1e41` and `5e-324` do not.
 */
import type { ValidationProblem } from '../errors/app-error.js';
import { pointer } from './json-pointer.js';
import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, endOfString, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-text.js';

export const MAX_WRITTEN_CHARS = 40;
export const NUMBER_TOO_LARGE = `number is too large to store exactly: at most ${MAX_WRITTEN_CHARS} characters written out without an exponent`;

const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
/** Beyond this an exponent only matters as "huge"; it keeps the arithmetic exact. */
const EXPONENT_CAP = 1_000_000_000;

const isDigit = (c: number) => c >= ZERO && c <= NINE;

/**
 * The problem with the first number in `text` (valid JSON) that is too long written out, at
 * its JSON Pointer, or undefined when every number may be stored. One linear pass; the
 * pointer is worked out only for a refused number.
 */
export function unstorableNumber(text: string): ValidationProblem | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i);
    } else if (c === MINUS || isDigit(c)) {
      const end = endOfNumber(text, i);
      if (!mayStore(text, i, end)) return { path: pointerAt(text, i), error: NUMBER_TOO_LARGE };
      i = end - 1;
    }
  }
  return undefined;
}

function endOfNumber(text: string, start: number): number {
  let i = start + 1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isDigit(c) && c !== DOT && c !== LOWER_E && c !== UPPER_E && c !== PLUS && c !== MINUS) break;
  }
  return i;
}

/** True when the JSON number text[start, end) written out in plain form fits the rule. */
function mayStore(text: string, start: number, end: number): boolean {
  const length = writtenOutLength(text, start, end);
  return length <= MAX_WRITTEN_CHARS || length <= end - start;
}

/**
 * How many characters Postgres writes for this number: the sign (not for zero), the integer
 * digits (at least "0") and, when the scale is positive, a point and the scale's digits. The
 * scale is the fraction's digits less the exponent, as Postgres' numeric input counts it.
 */
export function writtenOutLength(text: string, start: number, end: number): number {
  let i = start;
  const negative = text.charCodeAt(i) === MINUS;
  if (negative) i++;
  let integerDigits = 0;
  let fractionDigits = 0;
  let leadingZeros = 0;
  let nonZero = false;
  let inFraction = false;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === DOT) inFraction = true;
    else if (!isDigit(c)) break;
    else {
      if (inFraction) fractionDigits++;
      else integerDigits++;
      if (c !== ZERO) nonZero = true;
      else if (!nonZero) leadingZeros++;
    }
  }
  let exponent = 0;
  if (i < end) {
    i++;
    const sign = text.charCodeAt(i) === MINUS ? -1 : 1;
    if (text.charCodeAt(i) === MINUS || text.charCodeAt(i) === PLUS) i++;
    for (; i < end; i++) exponent = Math.min(exponent * 10 + (text.charCodeAt(i) - ZERO), EXPONENT_CAP);
    exponent *= sign;
  }
  const scale = Math.max(0, fractionDigits - exponent);
  const wholeDigits = nonZero ? Math.max(1, integerDigits + exponent - leadingZeros) : 1;
  return (negative && nonZero ? 1 : 0) + wholeDigits + (scale > 0 ? 1 + scale : 0);
}

interface Level {
  array: boolean;
  index: number;
  keyStart: number;
  keyEnd: number;
}

/** The JSON Pointer of the value that starts at `offset` in `text` (valid JSON). */
export function pointerAt(text: string, offset: number): string {
  const levels: Level[] = [];
  let expectKey = false;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    const level = levels[levels.length - 1];
    if (c === QUOTE) {
      const end = endOfString(text, i);
      if (expectKey && level) {
        level.keyStart = i;
        level.keyEnd = end + 1;
        expectKey = false;
      }
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      levels.push({ array: c === OPEN_BRACKET, index: 0, keyStart: 0, keyEnd: 0 });
      expectKey = c === OPEN_BRACE;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      levels.pop();
    } else if (c === COMMA && level) {
      if (level.array) level.index++;
      else expectKey = true;
    } else if (c === COLON) {
      expectKey = false;
    }
  }
  let path = '';
  for (const level of levels) path = pointer(path, level.array ? level.index : (JSON.parse(text.slice(level.keyStart, level.keyEnd)) as string));
  return path;
}
