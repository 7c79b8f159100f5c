import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { CaseEmailsService } from '../../cases/application/case-emails.service.js';
import type { CaseNotification } from '../../cases/application/case-notifications.js';
import { CreateCaseService, type CreateCaseCommand } from '../../cases/application/create-case.service.js';
import { AttributesInvalidError } from '../../cases/domain/case.errors.js';
import { TOO_LARGE_TO_STORE, tooLargeToStore } from '../../cases/domain/case-storage.js';
import type { ValidationProblem } from '../../../shared/errors/app-error.js';
import { isAutomatic } from '../domain/automatic-mail.js';
import { caseSubject, emailAttributes, emailFields, holdsNul, type IdentifiedAttachment, identifyAttachments, type InboundMessage, replyCandidates } from '../domain/inbound-message.js';
import { MailRefusedError, SMTP_REPLIES } from '../domain/smtp-reply.js';
import type { EmailTarget } from './email-addresses.service.js';

/** What became of an accepted message on one workflow. */
export type EmailOutcome =
  | { workflowId: number; kind: 'created'; caseId: number }
  | { workflowId: number; kind: 'replied'; caseId: number }
  /** Its Message-ID is already on a case of the workflow: the same message delivered again. */
  | { workflowId: number; kind: 'duplicate'; caseId: number };

type Plan =
  | { kind: 'create'; command: CreateCaseCommand<'id'> }
  | { kind: 'reply'; target: EmailTarget; caseId: number; attachments: IdentifiedAttachment[]; email: Record<string, unknown>; automatic: boolean }
  | { kind: 'duplicate'; target: EmailTarget; caseId: number };

/**
 * One accepted message, for every workflow it was addressed to: a reply to a message on one of
 * the workflow's cases is added to that case; otherwise it becomes a new case, created through
 * CreateCaseService like every other case. The message is checked against every workflow before
 * anything is stored, so a refusal stores nothing.
 *
 * Mail a machine sent (isAutomatic) is kept too, but reopens no case and starts no run: a reply
 * is marked `automatic` on the timeline, a new case opens without Open's run. A case takes
 * EMAIL_MAX_REPLIES_PER_CASE replies and EMAIL_MAX_REPLY_BYTES_PER_CASE bytes of them and its
 * files; a reply past either is refused (552 5.2.2), for good: a sender retrying cannot help.
 */
@Injectable()
export class ReceiveEmailService {
  constructor(
    private readonly createCase: CreateCaseService,
    private readonly caseEmails: CaseEmailsService,
    private readonly env: Env,
  ) {}

  async receive(targets: readonly EmailTarget[], message: InboundMessage): Promise<EmailOutcome[]> {
    if (holdsNul(message)) throw new MailRefusedError(SMTP_REPLIES.unreadable('it holds a NUL character, which cannot be stored'));
    // Measured once for every workflow: a new case stores these attributes, a reply the same fields in its timeline entry.
    if (tooLargeToStore(emailAttributes(message, identifyAttachments(message)).text)) throw new MailRefusedError(SMTP_REPLIES.unreadable(`it would store ${TOO_LARGE_TO_STORE}`));
    const plans: Plan[] = [];
    for (const target of uniqueWorkflows(targets)) plans.push(await this.plan(target, message));
    const outcomes: EmailOutcome[] = [];
    for (const plan of plans) outcomes.push(await this.carryOut(plan, message));
    return outcomes;
  }

  private async plan(target: EmailTarget, message: InboundMessage): Promise<Plan> {
    const candidates = replyCandidates(message);
    const known = await this.caseEmails.casesByMessageId(target.version.workflowId, message.messageId ? [message.messageId, ...candidates] : candidates);
    const sameMessage = message.messageId ? known.get(message.messageId) : undefined;
    if (sameMessage !== undefined) return { kind: 'duplicate', target, caseId: sameMessage };
    const repliedTo = candidates.find((id) => known.has(id));
    const automatic = isAutomatic(message);
    const attachments = identifyAttachments(message);
    if (repliedTo !== undefined) {
      const email = { ...emailFields(message, attachments), ...(automatic ? { automatic: true } : {}) };
      const caseId = known.get(repliedTo)!;
      await this.checkRoomFor(caseId, email, attachments);
      return { kind: 'reply', target, caseId, attachments, email, automatic };
    }
    const command: CreateCaseCommand<'id'> = {
      source: 'Email',
      organizationId: target.organizationId,
      workflow: target.version,
      subject: caseSubject(message),
      mode: 'live',
      attributes: emailAttributes(message, attachments),
      actor: { kind: 'email' },
      message: { attachments, messageId: message.messageId },
      withoutRun: automatic,
      answer: 'id',
    };
    try {
      this.createCase.check(command);
    } catch (err) {
      if (err instanceof AttributesInvalidError) throw new MailRefusedError(SMTP_REPLIES.invalidAttributes(firstProblem(err)));
      throw err;
    }
    return { kind: 'create', command };
  }

  private async carryOut(plan: Plan, message: InboundMessage): Promise<EmailOutcome> {
    switch (plan.kind) {
      case 'create': {
        const { id } = await this.createCase.execute(plan.command);
        return { workflowId: plan.command.workflow.workflowId, kind: 'created', caseId: id };
      }
      case 'reply': {
        const { organizationId, version } = plan.target;
        const { attachments, email, automatic } = plan;
        // A machine's mail (an auto-responder answering a public reply, a bounce) tells no one: nothing it sends makes mail.
        const told = automatic ? undefined : (caseId: number): CaseNotification => ({ organizationId, caseId, kind: 'requester_replied', summary: `The requester replied on case #${caseId}: ${message.subject ?? '(no subject)'}` });
        const repliedTo = await this.caseEmails.addReply(organizationId, version.workflowId, plan.caseId, email, { attachments, messageId: message.messageId }, !automatic, told);
        return { workflowId: version.workflowId, kind: 'replied', caseId: repliedTo.id };
      }
      case 'duplicate':
        return { workflowId: plan.target.version.workflowId, kind: 'duplicate', caseId: plan.caseId };
    }
  }

  private async checkRoomFor(caseId: number, email: Record<string, unknown>, attachments: readonly IdentifiedAttachment[]): Promise<void> {
    const { EMAIL_MAX_REPLIES_PER_CASE: maxReplies, EMAIL_MAX_REPLY_BYTES_PER_CASE: maxBytes } = this.env;
    const usage = await this.caseEmails.replyUsage(caseId);
    if (usage.replies >= maxReplies) throw new MailRefusedError(SMTP_REPLIES.caseFull(`${maxReplies} replies`));
    const bytes = Buffer.byteLength(JSON.stringify(email)) + attachments.reduce((sum, a) => sum + a.content.length, 0);
    if (usage.bytes + bytes > maxBytes) throw new MailRefusedError(SMTP_REPLIES.caseFull(`${maxBytes} bytes of replies and files`));
  }
}

function uniqueWorkflows(targets: readonly EmailTarget[]): EmailTarget[] {
  return [...new Map(targets.map((target) => [target.version.workflowId, target])).values()];
}

function firstProblem(err: AttributesInvalidError): ValidationProblem {
  const problems = err.details.validation_errors as ValidationProblem[];
  return problems[0] ?? { path: '', error: 'attributes_validation_failed' };
}
