import { SecretBox } from '../tokens/token-secrets.js';

/**
 * The one place organization secret values are sealed and opened. Each call names the row
 * (organization and secret name), so binding a ciphertext to its row is a change here only.
 */
export class SecretCipher {
  private readonly box: SecretBox;

  constructor(key: string) {
    this.box = new SecretBox(key);
  }

  seal(_organizationId: number, _name: string, value: string): string {
    return this.box.seal(value);
  }

  open(_organizationId: number, _name: string, sealed: string): string {
    return this.box.open(sealed);
  }
}
