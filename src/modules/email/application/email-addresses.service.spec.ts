import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CacheTrust } from '../../../shared/cache/cache-trust.js';
import type { Env } from '../../../shared/config/env.js';
import type { ChannelSecretKeeping } from '../../workflows/application/workflow-channel-secrets.js';
import { localPartHash } from '../domain/inbound-address.js';
import type { EmailAddressStore } from './email-address-store.js';
import { EmailAddressesService } from './email-addresses.service.js';

class Trusted extends CacheTrust {
  override isTrusted(): boolean {
    return true;
  }
}

/** The service over a table holding one address, counting the look-ups that reach it. */
function serviceWithOneAddress(localPart: string) {
  const lookUps: string[] = [];
  const rows = {
    workflowIdByHash: async (secretHash: Buffer) => {
      lookUps.push(secretHash.toString('hex'));
      return secretHash.equals(localPartHash(localPart)) ? 7 : undefined;
    },
  } as unknown as EmailAddressStore;
  const version = { workflowId: 7, isEmail: true };
  const keeping = {
    generations: new Trusted(),
    published: { state: async () => ({ organizationId: 3, published: true, current: version }) },
  } as unknown as ChannelSecretKeeping;
  const service = new EmailAddressesService(rows, keeping, { INBOUND_EMAIL_DOMAIN: 'inbound.example' } as Env);
  return { service, lookUps };
}

describe('EmailAddressesService.resolve', () => {
  it('an unknown recipient tried again costs no second database look-up; a known one still resolves', async () => {
    const known = `case-${'k'.repeat(52)}`;
    const { service, lookUps } = serviceWithOneAddress(known);
    const unknown = `case-${'u'.repeat(52)}@inbound.example`;
    for (let i = 0; i < 5; i++) assert.equal(await service.resolve(unknown), null);
    assert.equal(await service.resolve(unknown.toUpperCase()), null);
    assert.equal(lookUps.length, 1, 'the misses were remembered');
    assert.equal((await service.resolve(`${known}@inbound.example`))?.organizationId, 3);
  });
});
