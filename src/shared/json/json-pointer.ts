/** Appends one reference token to a JSON Pointer (RFC 6901: `~` becomes `~0`, `/` becomes `~1`). */
export function pointer(parent: string, token: string | number): string {
  return `${parent}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * The reference tokens of a JSON Pointer (RFC 6901), decoded; undefined when it is not one
 * (`~` must be followed by 0 or 1). `""`, the whole document, has no tokens.
 */
export function pointerTokens(text: string): string[] | undefined {
  if (text === '') return [];
  if (!text.startsWith('/') || /~[^01]|~$/.test(text)) return undefined;
  return text.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}
