import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Env } from '../../../shared/config/env.js';
import { sha256 } from '../../../shared/crypto/sha256.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { html } from '../../../shared/http/html.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { RelayMailer } from '../../../shared/mail/relay-mailer.js';
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
 * One-time sign-in links, mailed through SMTP_RELAY_URL. The link's token is random; only its
 * SHA-256 is stored, it signs in once, and only by the button of the page it opens (a mail
 * scanner that fetches the link signs in nobody).
 */
@Injectable()
export class SignInLinksService {
  constructor(
    private readonly store: PeopleStore,
    private readonly mailer: RelayMailer,
    private readonly limits: SignInRequestLimits,
    private readonly sso: SsoConfigurationsService,
    private readonly env: Env,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Mails `user` an invitation; answers the link (start:local prints it). A relay that fails is logged: the user exists all the same. */
  async invite(user: User): Promise<string> {
    const link = await this.issue(user, INVITATION_VALIDITY_MS);
    await this.mail(user, 'You are invited to the Case Intake Service', `You were invited as ${user.role}.`, link, '7 days');
    return link;
  }

  /**
   * `POST /auth/email` from `clientAddress`: mails a link to every user with this address (one per
   * organization), within the limits per address and client network, and per organization. The
   * caller learns nothing: the answer is the same, and the mail goes out after it, whoever asked.
   */
  async request(email: string, clientAddress: string): Promise<void> {
    if (!(await this.limits.allowAddress(email, clientAddress))) return;
    const users = await this.store.usersByEmail(email);
    for (const user of users) {
      // An organization that requires single sign-on mails no link: its people sign in at their provider.
      if ((await this.sso.required(user.organizationId)) || !(await this.limits.allowOrganization(user.organizationId))) continue;
      const link = await this.issue(user, SIGN_IN_VALIDITY_MS);
      void this.mail(user, 'Your sign-in link', 'Someone (we hope you) asked to sign in to the Case Intake Service.', link, '15 minutes');
    }
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

  private async issue(user: User, validityMs: number): Promise<string> {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    await this.store.createSignInLink(user, sha256(token), new Date(Date.now() + validityMs));
    return `${this.env.PUBLIC_BASE_URL}${SIGN_IN_PATH}/${token}`;
  }

  private async mail(user: User, subject: string, why: string, link: string, validFor: string): Promise<void> {
    const text = `${why}\n\nSign in: ${link}\n\nThe link works once, for ${validFor}. If you did not expect this mail, ignore it.\n`;
    const body = html`<p>${why}</p><p><a href="${link}">Sign in</a></p><p>The link works once, for ${validFor}. If you did not expect this mail, ignore it.</p>`;
    try {
      await this.mailer.send({ to: user.email, subject, text, html: body.text });
    } catch (err) {
      this.logger.warn({ organizationId: user.organizationId, userId: user.id, err: err instanceof Error ? err.message : String(err) }, 'sign-in mail not sent');
    }
  }
}
