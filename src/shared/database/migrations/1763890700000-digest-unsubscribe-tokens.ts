import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A digest recipient's confirm and unsubscribe links get tokens of their own: digests carry the
 * unsubscribe one only, so whoever holds a forwarded digest cannot confirm an address that
 * opted out. `token_hash` and `token_ciphertext` stay the confirm token (the confirmation mail's);
 * the unsubscribe token is issued when the address confirms and retired when it is used.
 *
 * Until now one token did both, and a confirmed or unsubscribed address's token may be in
 * digests it got: it stays an unsubscribe link for a confirmed address (those digests must keep
 * unsubscribing), and confirms nothing any more. An address that never confirmed got no digest,
 * so its token stays the confirm link of its confirmation mail. Both tokens of an address are
 * sealed bound to its organization and address, so the one ciphertext moves with no key.
 */
export class DigestUnsubscribeTokens1763890700000 implements MigrationInterface {
  name = 'DigestUnsubscribeTokens1763890700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE digest_recipients
        ALTER COLUMN token_hash DROP NOT NULL,
        ALTER COLUMN token_ciphertext DROP NOT NULL,
        ADD COLUMN unsubscribe_token_hash bytea UNIQUE,
        ADD COLUMN unsubscribe_token_ciphertext text;
      UPDATE digest_recipients
        SET unsubscribe_token_hash = CASE WHEN confirmed_at IS NOT NULL THEN token_hash END,
            unsubscribe_token_ciphertext = CASE WHEN confirmed_at IS NOT NULL THEN token_ciphertext END,
            token_hash = NULL, token_ciphertext = NULL
        WHERE confirmed_at IS NOT NULL OR unsubscribed_at IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE digest_recipients SET token_hash = unsubscribe_token_hash, token_ciphertext = unsubscribe_token_ciphertext WHERE token_hash IS NULL AND unsubscribe_token_hash IS NOT NULL;
      -- An address with neither token keeps its row (its opt-out), with a token no one holds.
      UPDATE digest_recipients SET token_hash = sha256(convert_to(random()::text || id::text, 'UTF8')), token_ciphertext = '' WHERE token_hash IS NULL;
      ALTER TABLE digest_recipients
        DROP COLUMN unsubscribe_token_hash,
        DROP COLUMN unsubscribe_token_ciphertext,
        ALTER COLUMN token_hash SET NOT NULL,
        ALTER COLUMN token_ciphertext SET NOT NULL;
    `);
  }
}
