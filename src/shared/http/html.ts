import { escapeHtml } from './escape-html.js';

/** A template tag whose every interpolation is escaped, except markup already built by `html` itself. */
export function html(strings: TemplateStringsArray, ...values: (string | number | Markup | Markup[] | null | undefined | false)[]): Markup {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Markup(out);
}

/** HTML that is safe as it is (built by `html`, all its values escaped). */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

function render(value: string | number | Markup | Markup[] | null | undefined | false): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map((item) => item.text).join('');
  return escapeHtml(String(value));
}
