import { isPlainObject } from '../../../shared/json/json-text.js';
import { ANY_TEMPLATE, wholeTemplatePath } from '../../workflows/domain/template-syntax.js';

/** What templates and conditions can read: `case.*` fields and `attributes.*` (dots go into nested objects). */
export interface TemplateScope {
  case: { id: number; subject: string; status: string; mode: string; workflow_id: number };
  attributes: Record<string, unknown>;
  /** Organization secrets by name: only http_request steps get them, for the names they use. */
  secrets?: Readonly<Record<string, string>>;
}

export class UnresolvableTemplateError extends Error {}

/** The value at a dotted path, or undefined when any part is missing. */
export function lookup(scope: TemplateScope, path: string): unknown {
  const [root, ...rest] = path.split('.');
  let value: unknown = root === 'case' ? scope.case : root === 'attributes' ? scope.attributes : root === 'secrets' ? scope.secrets : undefined;
  for (const part of rest) {
    if (!isPlainObject(value) && !Array.isArray(value)) return undefined;
    value = Object.hasOwn(value, part) ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value;
}

function resolvePath(scope: TemplateScope, path: string): unknown {
  const value = lookup(scope, path);
  if (value === undefined) throw new UnresolvableTemplateError(`template {{ ${path} }} does not resolve`);
  return value;
}

/**
 * Replaces `{{ path }}` in every string of `value`. A string that is exactly one template
 * takes the value itself, keeping its JSON type; inside longer strings values are inserted
 * as text (objects and arrays as JSON).
 */
export function render(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') {
    const whole = wholeTemplatePath(value);
    if (whole !== undefined) return resolvePath(scope, whole);
    return renderText(value, scope);
  }
  if (Array.isArray(value)) return value.map((item) => render(item, scope));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) Object.defineProperty(out, key, { value: render(item, scope), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** Replaces every `{{ path }}` in `template` with its value as text (objects and arrays as JSON), each passed through `encode`. */
export function renderText(template: string, scope: TemplateScope, encode: (text: string) => string = (text) => text): string {
  return template.replace(ANY_TEMPLATE, (_, path: string) => {
    const found = resolvePath(scope, path);
    return encode(typeof found === 'string' ? found : JSON.stringify(found));
  });
}
