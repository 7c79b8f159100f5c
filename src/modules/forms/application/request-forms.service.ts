import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { formSecretBinding } from '../../../shared/crypto/stored-secrets.js';
import { AppError } from '../../../shared/errors/app-error.js';
import { ChannelSecretKeeping, type ChannelTarget, WorkflowChannelSecrets } from '../../workflows/application/workflow-channel-secrets.js';
import { RequestFormStore } from './request-form-store.js';
import { isUrlSecretShaped, newUrlSecret, urlSecretHash } from '../../../shared/crypto/url-secret.js';

export class FormUnavailableError extends AppError {
  readonly code = 'workflow.not_published';
  constructor() {
    super('a request form needs a published workflow whose case source is "ticketing"');
  }
}

/** The workflow a form URL reaches right now, and the version its cases start on. */
export type FormTarget = ChannelTarget;

/** A ticketing workflow's secret form URL, `PUBLIC_BASE_URL/forms/<secret>`; a rotated one answers 404. */
@Injectable()
export class RequestFormsService extends WorkflowChannelSecrets {
  constructor(
    rows: RequestFormStore,
    keeping: ChannelSecretKeeping,
    private readonly env: Env,
  ) {
    const channel = {
      noun: 'form',
      audited: 'form',
      takes: (version: FormTarget['version']) => version.isTicketing,
      unavailable: () => new FormUnavailableError(),
      newSecret: newUrlSecret,
      hash: urlSecretHash,
      binding: formSecretBinding,
    };
    super(channel, rows, keeping);
  }

  /**
   * The workflow `secret` reaches: null unless it is the current form secret of a workflow that
   * is published with case source `ticketing` right now.
   */
  async resolve(secret: string): Promise<FormTarget | null> {
    return isUrlSecretShaped(secret) ? this.resolveSecret(secret) : null;
  }

  protected shown(secret: string): string {
    return `${this.env.PUBLIC_BASE_URL}/forms/${secret}`;
  }
}
