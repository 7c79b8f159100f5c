import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import { CaseMergeReads } from '../../cases/application/case-merges.js';
import { CaseQueriesService } from '../../cases/application/case-queries.service.js';
import { CaseRepository } from '../../cases/domain/case.repository.js';
import type { Actor, CaseProps } from '../../cases/domain/case.js';
import { EmailAddressesService } from '../../email/application/email-addresses.service.js';
import { UsersService } from '../../people/application/users.service.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import { type Comment, type CommentAuthor, mentionedAddresses, replyMessageId, replySubject, type Visibility } from '../domain/comment.js';
import { summaryLine } from '../domain/notification.js';
import { requesterOf } from '../domain/requester.js';
import { CommentStore, NotificationStore, type QueuedReply, WatcherStore } from './comment-ports.js';

/** Who comments: a signed-in person, or an admin token (which no one can mention or notify). */
export interface Commenter {
  organizationId: number;
  userId: number | null;
  tokenId: number | null;
  name: string;
  by: ChangeAuthor;
}

export class NoRequesterError extends InvalidRequestError {
  constructor() {
    super('the case has no known requester to reply to: an email case whose first message came from a person, or a workflow whose "requester_attribute" holds an address');
  }
}

/**
 * Comments on cases (casework.md section 3). A comment, its timeline row and event, a public
 * reply's queued mail, the watchers and notifications a note's mentions make, and its audit
 * entry commit together under the case's lock: a mail exists exactly when its comment does.
 */
@Injectable()
export class CommentsService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly cases: CaseRepository,
    private readonly caseQueries: CaseQueriesService,
    private readonly merges: CaseMergeReads,
    private readonly workflows: PublishedWorkflowsService,
    private readonly addresses: EmailAddressesService,
    private readonly users: UsersService,
    private readonly comments: CommentStore,
    private readonly watchers: WatcherStore,
    private readonly notifications: NotificationStore,
    private readonly audit: AuditTrail,
    private readonly env: Env,
  ) {}

  async post(caller: Commenter, caseId: number, body: string, visibility: Visibility): Promise<Comment> {
    const mentioned = visibility === 'internal' ? await this.mentionedPeople(caller, body) : [];
    return this.transactions.run(async (tx) => {
      const subject = (await this.cases.lock(tx, caller.organizationId, [caseId])).get(caseId);
      if (!subject) throw new NotFoundError('case');
      const reply = visibility === 'public' ? await this.reply(subject.snapshot()) : null;
      const author: CommentAuthor = { id: caller.userId, email: caller.userId === null ? null : caller.name, name: caller.name };
      const comment = await this.comments.insert(tx, { organizationId: caller.organizationId, caseId, author, visibility, body }, reply);
      const actor: Actor = caller.userId !== null ? { kind: 'user', userId: caller.userId } : { kind: 'admin_token', tokenId: caller.tokenId! };
      subject.comment({ id: comment.id, visibility, author: { id: author.id, email: author.email }, messageId: reply?.messageId ?? null, publicBody: reply ? body : null }, actor);
      await this.cases.save(tx, subject);
      if (mentioned.length) {
        await this.watchers.watch(tx, caller.organizationId, caseId, mentioned);
        const about = `${caller.name} mentioned you in a note on case #${caseId} “${subject.snapshot().subject}”`;
        await this.notifications.queue(tx, { organizationId: caller.organizationId, caseId, userIds: mentioned, kind: 'mentioned', summary: summaryLine(about) });
      }
      await this.audit.record(tx, {
        organizationId: caller.organizationId,
        by: caller.by,
        action: 'comment.created',
        target: { type: 'case', id: String(caseId) },
        summary: { comment_id: comment.id, visibility, ...(reply ? { recipients: reply.to.length } : {}), ...(mentioned.length ? { mentioned: mentioned.length } : {}) },
      });
      return comment;
    });
  }

  /** The case's comments, and those of the cases merged into it, after `afterId`, oldest first; NotFoundError for a case of another organization. */
  async list(organizationId: number, caseId: number, afterId: number, limit: number): Promise<Comment[]> {
    await this.caseQueries.get(organizationId, caseId);
    return this.comments.list(organizationId, await this.merges.shownOn(organizationId, caseId), afterId, limit);
  }

  /**
   * The people of the organization a note mentions who may work cases (active, `agent` or
   * stronger: a viewer is not made a watcher, an invited person not mailed), but its author. Any
   * other address is ignored: it is never mailed, and nothing says whether such a person exists.
   */
  private async mentionedPeople(caller: Commenter, body: string): Promise<number[]> {
    const addresses = new Set(mentionedAddresses(body));
    if (!addresses.size) return [];
    const people = await this.users.list(caller.organizationId);
    const named = people.filter((p) => addresses.has(p.email.toLowerCase()) && p.id !== caller.userId).map((p) => p.id);
    return [...(await this.users.workers(caller.organizationId, named)).keys()];
  }

  /** The queued mail of a public reply on the case; NoRequesterError when nobody can receive it. */
  private async reply(found: CaseProps): Promise<QueuedReply> {
    const version = await this.workflows.version(found.workflowId, found.workflowVersion);
    const inbound = version.isEmail ? await this.addresses.get(found.organizationId, found.workflowId).catch(() => null) : null;
    const own = (address: string) => address.endsWith(`@${this.env.INBOUND_EMAIL_DOMAIN.toLowerCase()}`) || address === this.env.DIGEST_FROM.toLowerCase();
    const requester = requesterOf(JSON.parse(found.attributes) as Record<string, unknown>, found.source === 'Email', version.definition.requester_attribute, own);
    if (!requester || !requester.to.length) throw new NoRequesterError();
    const from = inbound ?? this.env.DIGEST_FROM;
    return { from, to: requester.to, subject: replySubject(found.subject), messageId: replyMessageId(from), inReplyTo: requester.inReplyTo, references: requester.references };
  }
}
