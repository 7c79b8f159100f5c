/**
 * Finds where the value at a JSON Pointer (RFC 6901) sits in a JSON text, so a validation
 * error from the service can be shown in the editor at its path. For a pointer that does not
 * exist (a missing key), the closest existing parent is returned.
 */
export interface TextRange {
  start: number;
  end: number;
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Every value's range in `text`, by pointer; null when the text is not valid JSON. */
export function valueRanges(text: string): Map<string, TextRange> | null {
  const ranges = new Map<string, TextRange>();
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw new SyntaxError('invalid JSON');
  };
  const string = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (pointer: string): void => {
    skipSpace();
    const start = i;
    const char = text[i];
    if (char === '{') {
      i++;
      skipSpace();
      if (text[i] === '}') i++;
      else
        for (;;) {
          skipSpace();
          if (text[i] !== '"') fail();
          const key = string();
          skipSpace();
          if (text[i++] !== ':') fail();
          value(`${pointer}/${escapeToken(key)}`);
          skipSpace();
          const next = text[i++];
          if (next === '}') break;
          if (next !== ',') fail();
        }
    } else if (char === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') i++;
      else
        for (let index = 0; ; index++) {
          value(`${pointer}/${index}`);
          skipSpace();
          const next = text[i++];
          if (next === ']') break;
          if (next !== ',') fail();
        }
    } else if (char === '"') {
      string();
    } else {
      while (i < text.length && !',}] \t\n\r'.includes(text[i]!)) i++;
      if (i === start) fail();
    }
    ranges.set(pointer, { start, end: i });
  };
  try {
    value('');
    return ranges;
  } catch {
    return null;
  }
}

export function locatePointer(text: string, pointer: string): TextRange | null {
  const ranges = valueRanges(text);
  if (!ranges) return null;
  let path = pointer;
  for (;;) {
    const range = ranges.get(path);
    if (range) return range;
    if (path === '') return null;
    path = path.slice(0, path.lastIndexOf('/'));
  }
}
