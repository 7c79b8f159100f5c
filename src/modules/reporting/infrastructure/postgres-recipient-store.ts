import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { prepared, type ReportingStatement, statement } from './persistence.js';
import { OrganizationsService } from '../../organizations/application/organizations.service.js';
import { type ClaimedInvitation, type IssuedToken, RecipientStore, type RecipientStatus, type RecipientToken } from '../application/digest.ports.js';

/** What a recipient's page shows of the recipient row `r` (with its organization's name, which the organizations module keeps). */
const STATUS = 'r.organization_id, r.address, r.confirmed_at IS NOT NULL AS confirmed';
const STATUS_ROW = { organization_id: column.int8, address: column.text, confirmed: column.bool };
type StatusStatement = ReportingStatement<RowOf<typeof STATUS_ROW>>;

/** Where each token's hash is. */
const HASH_COLUMN: Record<RecipientToken, string> = { confirm: 'token_hash', unsubscribe: 'unsubscribe_token_hash' };

/** Confirming and unsubscribing each undo the other: the recipient's own choice, whichever came last. */
const setByToken = (token: RecipientToken, assignments: string) =>
  statement(
    `
  UPDATE digest_recipients r SET ${assignments}
  WHERE r.${HASH_COLUMN[token]} = $1
  RETURNING ${STATUS}`,
    STATUS_ROW,
  );

/** The unsubscribe token a digest carried is used up (a confirm issues the next one), so a link that unsubscribed does nothing again. */
const UNSUBSCRIBE = setByToken('unsubscribe', `confirmed_at = NULL, unsubscribed_at = coalesce(r.unsubscribed_at, now()),
  unsubscribe_token_hash = NULL, unsubscribe_token_ciphertext = NULL`);

/** An address that has an unsubscribe token keeps it: digests already sent must keep unsubscribing. */
const CONFIRM = setByToken('confirm', `confirmed_at = coalesce(r.confirmed_at, now()), unsubscribed_at = NULL,
  unsubscribe_token_hash = coalesce(r.unsubscribe_token_hash, $2), unsubscribe_token_ciphertext = coalesce(r.unsubscribe_token_ciphertext, $3)`);

const findByToken = (token: RecipientToken) => statement(`SELECT ${STATUS} FROM digest_recipients r WHERE r.${HASH_COLUMN[token]} = $1`, STATUS_ROW);
const FIND: Record<RecipientToken, StatusStatement> = { confirm: findByToken('confirm'), unsubscribe: findByToken('unsubscribe') };

const CLAIM_INVITATIONS = statement(
  `WITH claimed AS (
         UPDATE digest_recipients SET invitation_claimed_at = now(), invitation_attempts = invitation_attempts + 1
         WHERE id IN (SELECT id FROM digest_recipients
                      WHERE invitation_state = 'pending' AND confirmed_at IS NULL AND unsubscribed_at IS NULL
                        AND (invitation_claimed_at IS NULL OR invitation_claimed_at < now() - $1 * power(2, greatest(invitation_attempts - 1, 0)) * interval '1 millisecond')
                      ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING *)
       SELECT id, organization_id, address, token_ciphertext, invitation_attempts, invitation_error FROM claimed ORDER BY id`,
  {
    id: column.int8,
    organization_id: column.int8,
    address: column.text,
    token_ciphertext: column.text,
    invitation_attempts: column.int4,
    invitation_error: column.nullable(column.text),
  },
);
const MARK_INVITED = statement(`UPDATE digest_recipients SET invitation_state = 'sent', invitation_error = NULL WHERE id = $1`);
const MARK_INVITATION_FAILED = statement(
  `UPDATE digest_recipients SET invitation_error = $2, invitation_state = CASE WHEN $3::boolean THEN 'failed' ELSE invitation_state END WHERE id = $1`,
);

@Injectable()
export class PostgresRecipientStore extends RecipientStore {
  private readonly prepared: ReturnType<typeof prepared>;

  constructor(@InjectDataSource() dataSource: DataSource, private readonly organizations: OrganizationsService) {
    super();
    this.prepared = prepared(dataSource);
  }

  async claimInvitations(leaseMs: number, limit: number): Promise<ClaimedInvitation[]> {
    const rows = await this.prepared.rows(CLAIM_INVITATIONS, [leaseMs, limit]);
    const names = rows.length ? await this.organizations.names(rows.map((row) => Number(row.organization_id))) : new Map<number, string>();
    return rows.map((row) => ({
      recipientId: Number(row.id),
      organizationId: Number(row.organization_id),
      organizationName: names.get(Number(row.organization_id)) ?? '',
      address: row.address,
      tokenCiphertext: row.token_ciphertext,
      attempts: row.invitation_attempts,
      lastError: row.invitation_error,
    }));
  }

  async markInvited(recipientId: number): Promise<void> {
    await this.prepared.rows(MARK_INVITED, [recipientId]);
  }

  async markInvitationFailed(recipientId: number, error: string, final: boolean): Promise<void> {
    await this.prepared.rows(MARK_INVITATION_FAILED, [recipientId, error, final]);
  }

  async find(token: RecipientToken, tokenHash: Buffer): Promise<RecipientStatus | null> {
    return this.status(FIND[token], [tokenHash]);
  }

  confirm(tokenHash: Buffer, unsubscribe: IssuedToken): Promise<RecipientStatus | null> {
    return this.status(CONFIRM, [tokenHash, unsubscribe.tokenHash, unsubscribe.tokenCiphertext]);
  }

  unsubscribe(unsubscribeTokenHash: Buffer): Promise<RecipientStatus | null> {
    return this.status(UNSUBSCRIBE, [unsubscribeTokenHash]);
  }

  private async status(sql: StatusStatement, values: unknown[]): Promise<RecipientStatus | null> {
    const [row] = await this.prepared.rows(sql, values);
    if (!row) return null;
    const organizationId = Number(row.organization_id);
    const names = await this.organizations.names([organizationId]);
    return { organizationId, address: row.address, confirmed: row.confirmed, organizationName: names.get(organizationId) ?? '' };
  }
}
