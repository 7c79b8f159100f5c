import { hash } from 'node:crypto';

/** The SHA-256 of a secret, which is what is stored to find it (tokens, webhook URLs, URL secrets), or of what a search document is built of. */
export function sha256(secret: string): Buffer {
  // One call, no Hash object: this is on every webhook, token and form request.
  return hash('sha256', secret, 'buffer');
}
