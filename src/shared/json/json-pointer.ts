/** Appends one reference token to a JSON Pointer (RFC 6901: `~` becomes `~0`, `/` becomes `~1`). */
export function pointer(parent: string, token: string | number): string {
  return `${parent}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}
