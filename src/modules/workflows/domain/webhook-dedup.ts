import { pointer, pointerTokens } from '../../../shared/json/json-pointer.js';
import { isPlainObject, textAt } from '../../../shared/json/json-text.js';

/** `webhook_dedup` in a definition: webhook POSTs carrying the same value at `key` within the window make one case. */
export interface WebhookDedupSetting {
  /** A JSON Pointer into the posted object. */
  key: string;
  window_seconds: number;
}

export const MIN_DEDUP_WINDOW_SECONDS = 60;
export const MAX_DEDUP_WINDOW_SECONDS = 604_800;
export const DEFAULT_DEDUP_WINDOW_SECONDS = 86_400;
const MAX_KEY_POINTER = 1_000;
const SETTING_KEYS = new Set(['key', 'window_seconds']);

/** The setting with its default filled in, or undefined (off, or invalid: each problem is reported at its path). */
export function checkWebhookDedup(value: unknown, path: string, report: (path: string, error: string) => void): WebhookDedupSetting | undefined {
  if (value === null || value === undefined) return undefined;
  if (!isPlainObject(value)) {
    report(path, 'must be {"key": "<JSON Pointer>", "window_seconds": N} or null');
    return undefined;
  }
  for (const name of Object.keys(value)) if (!SETTING_KEYS.has(name)) report(pointer(path, name), `unknown key "${name}"`);
  const { key, window_seconds: window = DEFAULT_DEDUP_WINDOW_SECONDS } = value;
  const tokens = typeof key === 'string' && key.length <= MAX_KEY_POINTER ? pointerTokens(key) : undefined;
  if (!tokens?.length) report(pointer(path, 'key'), `must be a JSON Pointer into the posted object, such as "/delivery_id" (at most ${MAX_KEY_POINTER} characters)`);
  const windowOk = Number.isInteger(window) && (window as number) >= MIN_DEDUP_WINDOW_SECONDS && (window as number) <= MAX_DEDUP_WINDOW_SECONDS;
  if (!windowOk) report(pointer(path, 'window_seconds'), `must be an integer from ${MIN_DEDUP_WINDOW_SECONDS} to ${MAX_DEDUP_WINDOW_SECONDS}`);
  return tokens?.length && windowOk ? { key: key as string, window_seconds: window as number } : undefined;
}

/** A published version's de-duplication of webhook deliveries, its pointer decoded once. */
export class WebhookDedup {
  readonly windowSeconds: number;
  private readonly tokens: string[];

  constructor(setting: WebhookDedupSetting) {
    this.tokens = pointerTokens(setting.key)!;
    this.windowSeconds = setting.window_seconds;
  }

  /**
   * The delivery's key: the exact JSON text of the string or integer at the pointer in the
   * posted object's text (so `"7"` and `7` differ, and integers beyond 2^53 stay distinct).
   * Undefined when there is none, or when the value there is of another type (a number with a
   * fraction or exponent, a boolean, null, an object or an array): such a delivery is new.
   */
  keyOf(bodyText: string): string | undefined {
    const text = textAt(bodyText, this.tokens);
    return text !== undefined && (text.startsWith('"') || /^-?(0|[1-9][0-9]*)$/.test(text)) ? text : undefined;
  }
}
