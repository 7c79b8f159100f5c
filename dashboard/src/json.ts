/**
 * JSON that keeps numbers exactly as the service wrote them. Case attributes are stored and
 * returned as exact JSON text (an id like 12345678901234567890 or an amount like 1.10 must
 * not be rounded by JavaScript numbers), so a number whose text would not survive a round
 * trip through `Number` is kept as its source text and printed back unchanged.
 */
export class RawNumber {
  constructor(readonly source: string) {}
}

interface ReviverContext {
  source?: string;
}

export function parseJson(text: string): unknown {
  // The reviver's third argument (the value's source text) is recent; without it numbers are plain.
  return JSON.parse(text, (_key: string, value: unknown, context?: ReviverContext) => {
    if (typeof value === 'number' && context?.source !== undefined && context.source !== String(value)) return new RawNumber(context.source);
    return value;
  });
}

/** Two-space indented JSON, with RawNumber values printed as their exact source. */
export function prettyJson(value: unknown, indent = ''): string {
  if (value instanceof RawNumber) return value.source;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    // A short list of plain values stays on one line: ["Triage", "Escalated"], [1, 2, 3].
    if (value.every((item) => item === null || typeof item !== 'object' || item instanceof RawNumber)) {
      const line = `[${value.map((item) => prettyJson(item)).join(', ')}]`;
      if (line.length <= 60) return line;
    }
    return `[\n${value.map((item) => inner + prettyJson(item, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${prettyJson(item, inner)}`).join(',\n')}\n${indent}}`;
}

/** A short one-line rendering for table cells and timeline details. */
export function compactJson(value: unknown): string {
  if (value instanceof RawNumber) return value.source;
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(compactJsonValue).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${compactJsonValue(v)}`).join(', ')}}`;
}

function compactJsonValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : compactJson(value);
}

/** Checks the editor's text locally, so a syntax error never needs a round trip. */
export function jsonSyntaxError(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
