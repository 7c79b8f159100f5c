/**
 * What one case may keep, whatever the channel that fills it: every read, list page, event and
 * delivery about the case carries its attributes in full, so a case's attributes (and each
 * message a channel adds to its timeline) are bounded like a webhook body, 1 MiB. Every channel
 * measures the same way (`tooLargeToStore`) before it writes: webhook and API bodies, mail (text,
 * HTML, headers, attachment metadata), form fields, and the attributes a run's steps leave.
 */
export const CASE_STORAGE_BYTES = 1_048_576;

export const TOO_LARGE_TO_STORE = `more than the ${CASE_STORAGE_BYTES} bytes a case keeps`;

/**
 * Whether attributes, or a timeline entry's fields, take more than CASE_STORAGE_BYTES: counted
 * as the UTF-8 bytes of their JSON text as handed to storage (a body's own text; JSON.stringify's
 * for values the service builds, where an escaped control character counts its six bytes).
 */
export function tooLargeToStore(json: string): boolean {
  return Buffer.byteLength(json) > CASE_STORAGE_BYTES;
}
