import { Injectable } from '@nestjs/common';
import { AppError, InvalidRequestError, NotFoundError, UnstorableValueError, type ValidationProblem } from '../../../shared/errors/app-error.js';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import { unstorableNumber } from '../../../shared/json/json-numbers.js';
import { hasUnstorableEscape } from '../../../shared/json/json-text.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import type { Case, CaseProps } from '../domain/case.js';
import { AttributesInvalidError, CaseTooLargeError, StatusNotDeclaredError, StatusReservedForEngineError } from '../domain/case.errors.js';
import { CaseRepository } from '../domain/case.repository.js';
import { tooLargeToStore } from '../domain/case-storage.js';
import { actorOf, assigneeNamed, type Assignment, type Priority } from '../domain/case-work.js';
import { applyMergePatch } from '../domain/merge-patch.js';
import { CaseQueries } from './case-queries.js';
import { assignedNotification, CaseNotifications } from './case-notifications.js';
import { CaseWorkDirectory } from '../domain/case-work.ports.js';
import { type CaseServiceLevelView, CaseServiceLevels } from '../domain/case-service-levels.js';

/** A change a person makes to a case they work (casework.md, section 2): any subset; `undefined` leaves a field as it is. */
export interface CaseWorkChange {
  assigneeId?: number | null;
  teamId?: number | null;
  priority?: Priority;
  status?: string;
  /** A JSON merge patch (RFC 7396) of the attributes. */
  attributes?: Record<string, unknown>;
}

/** A case as the admin API shows it: with who works it. */
export interface WorkedCase {
  case: CaseProps;
  assignment: Assignment;
  /** Its SLA clocks: shown on the single admin case only, as computing them reads its timeline. */
  sla?: CaseServiceLevelView;
}

/**
 * Working a case: assignee, team, priority, status and attributes changed together, in one
 * transaction under the case's row lock, with the timeline rows, the events, the new status's
 * run and the audit entry. The one way a person changes a case: the admin API's PATCH and the
 * bulk job call it.
 */
@Injectable()
export class CaseWorkService {
  constructor(
    private readonly cases: CaseRepository,
    private readonly queries: CaseQueries,
    private readonly workflows: PublishedWorkflowsService,
    private readonly directory: CaseWorkDirectory,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
    private readonly serviceLevels: CaseServiceLevels,
    private readonly notifications: CaseNotifications,
  ) {}

  /**
   * 404 for a case outside the organization; 422 (nothing changed) for an assignee who may not
   * work cases, a team the organization does not have, an assignee outside the team given with
   * them, an undeclared status or `Error`, attributes the workflow's schema refuses as merged.
   * The workflow version and the assignee are read before the lock is taken (see
   * ChangeCaseStatusService); the team is read under it, locked, so a change of its members
   * cannot pass in between. A transaction Postgres broke off as a deadlock's loser runs again
   * (TransactionRunner.runRetryingConflicts).
   */
  async change(organizationId: number, caseId: number, change: CaseWorkChange, by: ChangeAuthor): Promise<WorkedCase> {
    const found = await this.queries.get(organizationId, caseId);
    if (!found) throw new NotFoundError('case');
    const version = await this.workflows.version(found.workflowId, found.workflowVersion);
    const assignee = await this.assignee(organizationId, change.assigneeId);
    return this.transactions.runRetryingConflicts(async (tx) => {
      const subject = (await this.cases.lock(tx, organizationId, [caseId])).get(caseId);
      if (!subject) throw new NotFoundError('case');
      return this.apply(tx, organizationId, subject, version, assignee, change, by);
    });
  }

  /**
   * Locks the cases in id order inside `tx`, before a bulk job changes them one by one
   * (`changeIn`): each change then locks its team after every case of the transaction, as a
   * single change and a team's deletion do, so none of them waits for another in a circle.
   */
  async lockForChanges(tx: Transaction, organizationId: number, caseIds: readonly number[]): Promise<void> {
    await this.cases.lock(tx, organizationId, caseIds);
  }

  /**
   * As `change`, inside `tx` (a bulk job's, which marks the case done in the same transaction,
   * so the case changes once whatever process dies when). A change the case refuses (any 404 or
   * 422 of `change`) writes nothing and is answered as its reason; null once the case changed.
   * Throws only when the database does.
   */
  async changeIn(tx: Transaction, organizationId: number, caseId: number, change: CaseWorkChange, by: ChangeAuthor): Promise<string | null> {
    try {
      const assignee = await this.assignee(organizationId, change.assigneeId);
      const subject = (await this.cases.lock(tx, organizationId, [caseId])).get(caseId);
      if (!subject) return 'the case does not exist or belongs to another organization';
      await this.apply(tx, organizationId, subject, await this.workflows.version(subject.workflowId, subject.workflowVersion), assignee, change, by);
      return null;
    } catch (err) {
      if (err instanceof AppError && REFUSALS.some((refusal) => err instanceof refusal)) return reasonOf(err);
      throw err;
    }
  }

  /** Every check throws before the first write, so a refusal leaves `tx` as it was. */
  private async apply(tx: Transaction, organizationId: number, subject: Case, version: WorkflowVersion, assignee: { id: number; email: string } | null, change: CaseWorkChange, by: ChangeAuthor): Promise<WorkedCase> {
    const actor = actorOf(by);
    const caseId = subject.id;
    const before = subject.snapshot();
    const from = (await this.assignments(organizationId, [before], tx))[0]!;
    let to = from;
    if (change.assigneeId !== undefined || change.teamId !== undefined) {
      const teamId = change.teamId === undefined ? before.teamId : change.teamId;
      const team = teamId === null ? null : await this.directory.team(tx, organizationId, teamId);
      if (team === undefined) throw new InvalidRequestError('no such team in the organization', [{ path: '/team_id', error: `team ${teamId} does not exist in the organization` }]);
      if (assignee && team && change.teamId !== undefined && !team.memberIds.includes(assignee.id)) {
        throw new InvalidRequestError('the assignee is not a member of the team', [{ path: '/assignee_id', error: `user ${assignee.id} is not a member of team ${team.id}` }]);
      }
      to = {
        assignee: change.assigneeId === undefined ? from.assignee : assignee,
        team: team && { id: team.id, name: team.name },
      };
      subject.assign(from, to, actor);
    }
    if (change.priority !== undefined) subject.prioritize(change.priority, actor);
    if (change.attributes !== undefined) {
      const { set, removed } = checkedPatch(version.attributeSchema, before.attributes, change.attributes);
      subject.mergeAttributes(JSON.stringify(set), Object.keys(set), actor, removed);
    }
    if (change.status !== undefined) subject.moveTo(change.status, version, actor);
    const stored = await this.cases.save(tx, subject);
    await this.audit.record(tx, { organizationId, by, action: 'case.changed', target: { type: 'case', id: String(caseId) }, summary: summaryOf(before, stored, from, to, change) });
    const told = assignedNotification(organizationId, caseId, from, to, actor.kind === 'user' ? actor.userId : null);
    if (told) await this.notifications.notify(told, tx);
    return { case: stored, assignment: to };
  }

  /** The case as the admin API shows it: who works it, and how many watch it. */
  async shown(organizationId: number, caseId: number): Promise<WorkedCase> {
    const found = await this.queries.get(organizationId, caseId, true);
    if (!found) throw new NotFoundError('case');
    const [[assignment], sla] = await Promise.all([this.assignments(organizationId, [found]), this.serviceLevels.of(found)]);
    return { case: found, assignment: assignment!, ...(sla ? { sla } : {}) };
  }

  /** Who works each case, as people read them (inside `tx` when given). */
  async assignments(organizationId: number, cases: readonly CaseProps[], tx?: Transaction): Promise<Assignment[]> {
    const userIds = [...new Set(cases.flatMap((c) => (c.assigneeId === null ? [] : [c.assigneeId])))];
    const teamIds = [...new Set(cases.flatMap((c) => (c.teamId === null ? [] : [c.teamId])))];
    const names = userIds.length || teamIds.length ? await this.directory.names(organizationId, userIds, teamIds, tx) : { users: new Map<number, string>(), teams: new Map<number, string>() };
    return cases.map((c) => {
      const name = c.teamId === null ? undefined : names.teams.get(c.teamId);
      return { assignee: assigneeNamed(c.assigneeId, names.users), team: name === undefined ? null : { id: c.teamId!, name } };
    });
  }

  private async assignee(organizationId: number, assigneeId: number | null | undefined): Promise<{ id: number; email: string } | null> {
    if (assigneeId === undefined || assigneeId === null) return null;
    const email = (await this.directory.workers(organizationId, [assigneeId])).get(assigneeId);
    if (email === undefined) {
      throw new InvalidRequestError('the assignee may not work cases', [{ path: '/assignee_id', error: `user ${assigneeId} is not an active user of the organization with a role of agent or stronger` }]);
    }
    return { id: assigneeId, email };
  }
}

/** What a case refuses of a change, as `change` throws it (404, 422): a bulk job counts the case as failed with why. */
const REFUSALS = [NotFoundError, InvalidRequestError, StatusNotDeclaredError, StatusReservedForEngineError, AttributesInvalidError, CaseTooLargeError];

/** The problem of a refused field when there is one (the assignee who may not work cases), else the error's message. */
function reasonOf(err: AppError): string {
  const problems = err.details.validation_errors as ValidationProblem[] | undefined;
  return problems?.length ? problems.map((p) => p.error).join('; ') : err.message;
}

/** The merge patch checked as a whole: the merged attributes against the schema and the storage limits. */
function checkedPatch(schema: { check(value: Record<string, unknown>): ValidationProblem[] }, stored: string, patch: Record<string, unknown>) {
  const result = applyMergePatch(JSON.parse(stored) as Record<string, unknown>, patch);
  const text = JSON.stringify(result.merged);
  if (tooLargeToStore(text)) throw new CaseTooLargeError();
  const setText = JSON.stringify(result.set);
  if (hasUnstorableEscape(setText)) throw new UnstorableValueError();
  const number = unstorableNumber(setText);
  const problems = number ? [number] : schema.check(result.merged);
  if (problems.length) throw new AttributesInvalidError(problems.map((p) => ({ ...p, path: `/attributes${p.path}` })));
  return result;
}

function summaryOf(before: CaseProps, after: CaseProps, from: Assignment, to: Assignment, change: CaseWorkChange): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  if (from.assignee?.id !== to.assignee?.id) summary.assignee = { from: from.assignee?.id ?? null, to: to.assignee?.id ?? null };
  if (from.team?.id !== to.team?.id) summary.team = { from: from.team?.id ?? null, to: to.team?.id ?? null };
  if (before.priority !== after.priority) summary.priority = { from: before.priority, to: after.priority };
  if (change.status !== undefined) summary.status = { from: before.status, to: after.status };
  if (change.attributes !== undefined) summary.attributes = Object.keys(change.attributes).map((key) => `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  return summary;
}
