import { Inject, Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { DigestMailer, RecipientStore } from './digest.ports.js';
import { invitationEmail } from './invitation-email.js';
import { attemptMail, SEND_LEASE_MS } from './mail-attempt.js';
import { RecipientTokens } from './recipient-tokens.js';

const BATCH = 100;

/**
 * Sends the confirmation mails of new recipients (part of each digest pass): one per address
 * and organization, retried and given up as digests are; an address gets no digest before it
 * confirms.
 */
@Injectable()
export class InvitationPass {
  constructor(
    private readonly recipients: RecipientStore,
    private readonly mailer: DigestMailer,
    private readonly tokens: RecipientTokens,
    private readonly env: Env,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(): Promise<void> {
    for (const invitation of await this.recipients.claimInvitations(SEND_LEASE_MS, BATCH)) {
      await attemptMail(
        {
          attempts: invitation.attempts,
          lastError: invitation.lastError,
          about: { recipientId: invitation.recipientId },
          send: async () => {
            const email = invitationEmail(invitation.organizationName, invitation.address, this.tokens.confirmUrl(invitation), this.env.PUBLIC_BASE_URL!);
            await this.mailer.send({ to: invitation.address, ...email });
            await this.recipients.markInvited(invitation.recipientId);
          },
          failed: (error, final) => this.recipients.markInvitationFailed(invitation.recipientId, error, final),
        },
        this.logger,
      );
    }
  }
}
