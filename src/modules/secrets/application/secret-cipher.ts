import type { SecretBox } from '../../../shared/crypto/secret-box.js';
import { organizationSecretBinding } from '../../../shared/crypto/stored-secrets.js';

/**
 * The one place organization secret values are sealed and opened. Each call names the row
 * (organization and secret name): the value is bound to it, so it opens nowhere else.
 */
export class SecretCipher {
  constructor(private readonly box: SecretBox) {}

  seal(organizationId: number, name: string, value: string): string {
    return this.box.seal(value, organizationSecretBinding(organizationId, name));
  }

  open(organizationId: number, name: string, sealed: string): string {
    return this.box.open(sealed, organizationSecretBinding(organizationId, name));
  }
}
