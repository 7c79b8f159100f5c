import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Env } from '../../../shared/config/env.js';
import { sha256 } from '../../../shared/crypto/sha256.js';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { RelayMailer } from '../../../shared/mail/relay-mailer.js';
import type { SignInMailKind } from '../domain/sign-in-mail.js';
import type { User } from '../domain/user.js';
import { PeopleStore, type SpentSignInLink } from './people-store.js';
import { SignInRequestLimits } from './sign-in-request-limits.js';
import { SsoConfigurationsService } from './sso-configurations.service.js';

export const SIGN_IN_PATH = '/auth/link';
/** An invitation's link is valid this long (people.md, section 1). */
export const INVITATION_VALIDITY_MS = 7 * 24 * 3_600_000;
/** A link asked for on the sign-in page is valid this long (people.md, section 2). */
export const SIGN_IN_VALIDITY_MS = 15 * 60_000;
const TOKEN_PREFIX = 'sil_';

/**
 * One-time sign-in links. The link's token is random; only its SHA-256 is stored, it signs in
 * once, and only by the button of the page it opens (a mail scanner that fetches the link signs
 * in nobody). Asking for a link or inviting someone only queues a mail (sign_in_mails): the
 * worker issues the link when it mails it (SignInMailSender), so no token waits in the database
 * and a link's time starts when it is sent.
 */
@Injectable()
export class SignInLinksService {
  constructor(
    private readonly store: PeopleStore,
    private readonly mailer: RelayMailer,
    private readonly limits: SignInRequestLimits,
    private readonly sso: SsoConfigurationsService,
    private readonly transactions: TransactionRunner,
    private readonly env: Env,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Queues `user`'s invitation in the transaction that creates them: it is mailed once that commits. */
  async invite(tx: Transaction, user: User): Promise<void> {
    if (this.mailable(user)) await this.store.queueSignInMail(tx, user, 'invitation');
  }

  /**
   * `POST /auth/email` from `clientAddress`: mails a link to every user with this address (one per
   * organization) as SignInRequestLimits allows: at once from a network that signed them in
   * before, otherwise when their backoff does. The caller learns nothing: the answer is the same,
   * and the mail goes out after it, whoever asked. A request held back is logged with the user's
   * id and why, never the address.
   */
  async request(email: string, clientAddress: string): Promise<void> {
    const mailed: User[] = [];
    for (const user of await this.store.usersByEmail(email)) {
      // An organization that requires single sign-on mails no link: its people sign in at their provider.
      if (await this.sso.required(user.organizationId)) continue;
      const heldBack = await this.limits.allowLink(user, clientAddress);
      if (heldBack) this.logger.info({ organizationId: user.organizationId, userId: user.id, reason: heldBack }, 'sign-in link request held back');
      else if (this.mailable(user)) mailed.push(user);
    }
    if (mailed.length) await this.transactions.run(async (tx) => {
      for (const user of mailed) await this.store.queueSignInMail(tx, user, 'sign_in');
    });
  }

  /** A new link for `user`, valid as long as `kind` says; only its hash is kept. */
  async issue(user: Pick<User, 'id' | 'organizationId'>, kind: SignInMailKind): Promise<string> {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    await this.store.createSignInLink(user, sha256(token), new Date(Date.now() + (kind === 'invitation' ? INVITATION_VALIDITY_MS : SIGN_IN_VALIDITY_MS)));
    return `${this.env.PUBLIC_BASE_URL}${SIGN_IN_PATH}/${token}`;
  }

  /**
   * A sign-in link for the organization's user with this address, issued now and answered rather
   * than mailed, so no request limit is spent: for a process that already holds the service's
   * secrets (start:local prints its demo owner's link on every start). Undefined when there is no
   * such user.
   */
  async issueFor(organizationId: number, email: string): Promise<string | undefined> {
    const user = (await this.store.usersByEmail(email)).find((u) => u.organizationId === organizationId);
    return user && this.issue(user, 'sign_in');
  }

  /** Whether the link's page should offer to sign in (nothing is used up). */
  usable(token: string): Promise<boolean> {
    return token.startsWith(TOKEN_PREFIX) ? this.store.signInLinkUsable(sha256(token)) : Promise.resolve(false);
  }

  /** Uses the link up: its user, or the user of a used or expired link and why it failed; undefined for an unknown link. */
  async redeem(tx: Transaction, token: string): Promise<{ user: User } | { spent: SpentSignInLink } | undefined> {
    if (!token.startsWith(TOKEN_PREFIX)) return undefined;
    const holder = await this.store.signInLinkUser(tx, sha256(token));
    if (holder && (await this.sso.required(holder.organizationId))) return { spent: { user: holder, reason: 'sso_required' } };
    const user = await this.store.redeemSignInLink(tx, sha256(token));
    if (user) return { user };
    const spent = await this.store.spentSignInLink(tx, sha256(token));
    return spent && { spent };
  }

  /** Without a relay nothing could send the mail: it is not queued, and the user can only be signed in some other way. */
  private mailable(user: User): boolean {
    if (!this.mailer.configured) this.logger.warn({ organizationId: user.organizationId, userId: user.id }, 'sign-in mail not sent: SMTP_RELAY_URL is not set');
    return this.mailer.configured;
  }
}
