/**
 * An independent reading of JSON *text* for the exact-JSON specs: where a member's value sits
 * in the raw text, and which number literals a text holds, compared as exact decimals. It
 * never goes through JavaScript numbers, so it sees what JSON.parse would round away.
 */

export type RawJson =
  | { kind: 'number'; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'literal'; text: 'true' | 'false' | 'null' }
  | { kind: 'array'; items: RawNode[] }
  | { kind: 'object'; members: { key: string; value: RawNode }[] };

/** A value and where it sits in the text (`text.slice(start, end)`). */
export type RawNode = RawJson & { start: number; end: number };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/** Parses strict JSON text (RFC 8259); throws on anything else. */
export function parseRawJson(text: string): RawNode {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at ${i} in ${text.slice(Math.max(0, i - 20), i + 20)}`);
  };
  const skip = () => {
    WHITESPACE.lastIndex = i;
    WHITESPACE.exec(text);
    i = WHITESPACE.lastIndex;
  };
  const expect = (c: string) => {
    if (text[i] !== c) fail(`expected ${c}`);
    i++;
  };
  const string = (): string => {
    const start = i;
    expect('"');
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail('control character in string');
      i += text[i] === '\\' ? 2 : 1;
    }
    expect('"');
    return JSON.parse(text.slice(start, i)) as string;
  };
  /** Comma-separated items up to `close` (the opening bracket already read). */
  const sequence = <T>(close: string, item: () => T): T[] => {
    const items: T[] = [];
    skip();
    if (text[i] === close) {
      i++;
      return items;
    }
    for (;;) {
      items.push(item());
      skip();
      if (text[i] !== ',') break;
      i++;
    }
    expect(close);
    return items;
  };
  const member = () => {
    skip();
    const key = string();
    skip();
    expect(':');
    return { key, value: value() };
  };
  const value = (): RawNode => {
    skip();
    const start = i;
    const c = text[i];
    let node: RawJson;
    if (c === '{') {
      i++;
      node = { kind: 'object', members: sequence('}', member) };
    } else if (c === '[') {
      i++;
      node = { kind: 'array', items: sequence(']', value) };
    } else if (c === '"') {
      node = { kind: 'string', value: string() };
    } else {
      const literal = (['true', 'false', 'null'] as const).find((word) => text.startsWith(word, i));
      if (literal) {
        i += literal.length;
        node = { kind: 'literal', text: literal };
      } else {
        NUMBER.lastIndex = i;
        const match = NUMBER.exec(text) ?? fail('unexpected token');
        i = NUMBER.lastIndex;
        node = { kind: 'number', text: match[0] };
      }
    }
    return { ...node, start, end: i };
  };
  const root = value();
  skip();
  if (i !== text.length) fail('trailing text');
  return root;
}

/** The exact text of the value at `path` (object keys; the last one wins when a key repeats). */
export function rawMemberText(text: string, path: string[]): string {
  let node = parseRawJson(text);
  for (const key of path) {
    if (node.kind !== 'object') throw new Error(`not an object above "${key}"`);
    const member = node.members.findLast((m) => m.key === key);
    if (!member) throw new Error(`no member "${key}"`);
    node = member.value;
  }
  return text.slice(node.start, node.end);
}

/** Every number literal in the text, as written. */
export function numberLiterals(text: string): string[] {
  const found: string[] = [];
  const walk = (node: RawNode): void => {
    if (node.kind === 'number') found.push(node.text);
    else if (node.kind === 'array') node.items.forEach(walk);
    else if (node.kind === 'object') node.members.forEach((m) => walk(m.value));
  };
  walk(parseRawJson(text));
  return found;
}

/**
 * A number literal as an exact decimal `[-]digits e exponent`, with no leading or trailing
 * zeros in the digits: `1.50E+2`, `150` and `1500e-1` are all `15e1`; every zero is `0`.
 */
export function canonicalDecimal(literal: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!match) throw new Error(`not a JSON number: ${literal}`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = (whole! + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  let scale = BigInt(exponent) - BigInt(fraction.length);
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  scale += BigInt(trailing);
  return `${sign}${digits}e${scale}`;
}

/** The canonical decimals of all numbers in the text, sorted: a multiset to compare. */
export function canonicalNumbers(text: string): string[] {
  return numberLiterals(text).map(canonicalDecimal).sort();
}
