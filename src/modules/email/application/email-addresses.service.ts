import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { emailAddressBinding } from '../../../shared/crypto/stored-secrets.js';
import { AppError } from '../../../shared/errors/app-error.js';
import { ChannelSecretKeeping, type ChannelTarget, WorkflowChannelSecrets } from '../../workflows/application/workflow-channel-secrets.js';
import { EmailAddressStore } from './email-address-store.js';
import { localPartFor, localPartHash, newLocalPart } from '../domain/inbound-address.js';

export class EmailAddressUnavailableError extends AppError {
  readonly code = 'workflow.not_published';
  constructor() {
    super('an inbound email address needs a published workflow whose case source is "email"');
  }
}

/** The workflow a recipient address reaches right now, and the version its cases start on. */
export type EmailTarget = ChannelTarget;

/** A workflow's secret inbound address, `<local part>@INBOUND_EMAIL_DOMAIN`; a rotated one is refused at `RCPT TO`. */
@Injectable()
export class EmailAddressesService extends WorkflowChannelSecrets {
  constructor(
    rows: EmailAddressStore,
    keeping: ChannelSecretKeeping,
    private readonly env: Env,
  ) {
    const channel = {
      noun: 'email address',
      audited: 'email_address',
      takes: (version: EmailTarget['version']) => version.isEmail,
      unavailable: () => new EmailAddressUnavailableError(),
      newSecret: newLocalPart,
      hash: localPartHash,
      binding: emailAddressBinding,
    };
    super(channel, rows, keeping);
  }

  /**
   * The workflow `recipient` reaches: null unless it is the current address of a workflow that
   * is published with case source `email` right now.
   */
  async resolve(recipient: string): Promise<EmailTarget | null> {
    const localPart = localPartFor(recipient, this.env.INBOUND_EMAIL_DOMAIN);
    return localPart === null ? null : this.resolveSecret(localPart);
  }

  protected shown(localPart: string): string {
    return `${localPart}@${this.env.INBOUND_EMAIL_DOMAIN}`;
  }
}
