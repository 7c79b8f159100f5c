/**
 * Where `{{ path }}` templates stand in a string: a definition is checked against this,
 * and the automation renders with it.
 */

const WHOLE = /^\{\{\s*([^{}\s]+)\s*\}\}$/;
export const ANY_TEMPLATE = /\{\{\s*([^{}\s]+)\s*\}\}/g;

/** The path of a string that is exactly one template, like `attributes.link` for `{{ attributes.link }}`. */
export function wholeTemplatePath(value: string): string | undefined {
  return WHOLE.exec(value)?.[1];
}

/** Every template in `value`, with where it starts. */
export function templatesIn(value: string): { path: string; index: number }[] {
  return [...value.matchAll(ANY_TEMPLATE)].map((m) => ({ path: m[1]!, index: m.index }));
}
