import type { Transaction } from '../../../shared/database/transaction.js';
import type { OutgoingMail } from '../../../shared/mail/relay-mailer.js';
import type { Digest, DigestSchedule, Period, ScheduledDigest } from '../domain/digest.js';

export interface NewDigest extends DigestSchedule {
  recipients: string[];
  workflowIds: number[] | null;
}

/** A recipient's token, hashed to find the recipient and sealed to mail it. */
export interface IssuedToken {
  tokenHash: Buffer;
  tokenCiphertext: string;
}

/** An address as a new digest names it, with its confirm token (kept if the organization knows the address). */
export interface NewRecipient extends IssuedToken {
  address: string;
}

/** Where a recipient's token (confirm or unsubscribe) is sealed: its organization and address. */
export interface RecipientRef {
  organizationId: number;
  address: string;
  tokenCiphertext: string;
}

/** A confirmed recipient a send has yet to reach, with its unsubscribe token. */
export interface SendRecipient extends RecipientRef {
  id: number;
}

/** One send of a digest for one period, claimed by the worker that sends it. */
export interface ClaimedSend {
  sendId: number;
  /** Claims so far, this one included. */
  attempts: number;
  digest: ScheduledDigest;
  period: Period;
  recipients: SendRecipient[];
  /** The error of the attempt before, if it failed. */
  lastError: string | null;
}

/** A confirmation mail, claimed by the worker that sends it, with the recipient's confirm token. */
export interface ClaimedInvitation extends RecipientRef {
  recipientId: number;
  organizationName: string;
  attempts: number;
  lastError: string | null;
}

export type ManualSendAnswer = { queued: true } | { queued: false; retryAfterSeconds: number };

export abstract class DigestStore {
  /**
   * Refused (OrganizationCapReachedError) past MAX_DIGESTS_PER_ORGANIZATION. Addresses the
   * organization never named get a confirmation mail (the next pass sends it), and so do those
   * that neither confirmed nor unsubscribed and were last asked more than `invitationSpacingMs` ago.
   */
  abstract create(tx: Transaction, organizationId: number, digest: NewDigest, recipients: readonly NewRecipient[], invitationSpacingMs: number): Promise<Digest>;
  /**
   * Writes the digest's fields as `digest` has them; null if the organization has no such digest.
   * `recipients` are invited as by create. The `passed` periods are never sent: they ended
   * before a change of schedule.
   */
  abstract update(tx: Transaction, organizationId: number, id: number, digest: NewDigest, recipients: readonly NewRecipient[], invitationSpacingMs: number, passed: readonly Period[]): Promise<Digest | null>;
  abstract list(organizationId: number): Promise<Digest[]>;
  /** In `tx` when given. */
  abstract find(organizationId: number, id: number, tx?: Transaction): Promise<Digest | null>;
  abstract delete(tx: Transaction, organizationId: number, id: number): Promise<boolean>;
  /** Every digest of every organization, for the scheduler. */
  abstract all(): Promise<ScheduledDigest[]>;
  /** Claims the scheduled sends of these periods that no worker claimed yet; answers the sends this call claimed. */
  abstract claimPeriods(digestId: number, periods: readonly Period[]): Promise<number[]>;
  /**
   * A manual send, claimed by no one yet: the next pass of any worker takes it. Refused while
   * another of the digest's is unsent, and within `spacingMs` of the last one asked for.
   */
  abstract addManualSend(tx: Transaction, digestId: number, period: Period, spacingMs: number): Promise<ManualSendAnswer>;
  /**
   * Claims unsent sends that no one claimed (manual ones) or whose claim lapsed: the worker
   * died, or the attempt failed. A claim lapses after `leaseMs`, doubled with each attempt.
   */
  abstract claimUnsent(leaseMs: number, limit: number): Promise<ClaimedSend[]>;
  /** The claimed sends by id, with their digest. */
  abstract sends(ids: readonly number[]): Promise<ClaimedSend[]>;
  /** The relay took the send for this recipient: a retry of the send leaves it out. */
  abstract markDelivered(sendId: number, recipientId: number): Promise<void>;
  /** Sent to every recipient it had (skipped when it had none). */
  abstract markSent(sendId: number): Promise<void>;
  /** An attempt failed; when it was the last, the send is given up and its digest shows the error. */
  abstract markAttemptFailed(sendId: number, error: string, final: boolean): Promise<void>;
}

/** A recipient as its own pages show it. */
export interface RecipientStatus {
  organizationId: number;
  organizationName: string;
  address: string;
  confirmed: boolean;
}

/**
 * Which of a recipient's two tokens: the confirmation mail carries the confirm one, digests the
 * unsubscribe one, so a forwarded digest cannot confirm an address that opted out.
 */
export type RecipientToken = 'confirm' | 'unsubscribe';

/** Recipients: their confirmation mails, and what their confirm and unsubscribe pages do. */
export abstract class RecipientStore {
  /** Claims confirmation mails not sent yet whose claim lapsed (as DigestStore.claimUnsent). */
  abstract claimInvitations(leaseMs: number, limit: number): Promise<ClaimedInvitation[]>;
  abstract markInvited(recipientId: number): Promise<void>;
  abstract markInvitationFailed(recipientId: number, error: string, final: boolean): Promise<void>;
  /** The recipient whose confirm or unsubscribe token this is. */
  abstract find(token: RecipientToken, tokenHash: Buffer): Promise<RecipientStatus | null>;
  /**
   * Confirms the address for every digest of its organization that names it, also after it
   * unsubscribed; `unsubscribe` becomes its unsubscribe token unless it has one.
   */
  abstract confirm(tokenHash: Buffer, unsubscribe: IssuedToken): Promise<RecipientStatus | null>;
  /** Takes the address out of every digest of its organization, until it confirms again; the unsubscribe token is used up. */
  abstract unsubscribe(unsubscribeTokenHash: Buffer): Promise<RecipientStatus | null>;
}

/** Sends digests, and the confirmation mails of their recipients, through SMTP_RELAY_URL. */
export abstract class DigestMailer {
  abstract readonly configured: boolean;
  /** Throws MailNotSentError. */
  abstract send(message: OutgoingMail): Promise<void>;
}

/** Rasterizes the chart's SVG to PNG, on the server. */
export abstract class ChartRenderer {
  abstract png(svg: string): Buffer;
}

export { MailNotSentError, type OutgoingMail } from '../../../shared/mail/relay-mailer.js';
