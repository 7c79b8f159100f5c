import { Injectable } from '@nestjs/common';
import { InvalidRequestError, NotFoundError, RateLimitedError } from '../../../shared/errors/app-error.js';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import { type Role, roleAllows } from '../../../shared/http/roles.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { LastOwnerError } from '../domain/people.errors.js';
import { auditTargetOf, type User } from '../domain/user.js';
import { PeopleStore } from './people-store.js';
import { SessionsService } from './sessions.service.js';
import { SignInLinksService } from './sign-in-links.service.js';
import { SignInRequestLimits } from './sign-in-request-limits.js';

export interface UserView {
  id: number;
  email: string;
  role: Role;
  status: User['status'];
  created_at: string;
  last_seen_at: string | null;
}

/** An organization's people: invited by an owner, each with one role; an organization never loses its last owner. */
@Injectable()
export class UsersService {
  constructor(
    private readonly store: PeopleStore,
    private readonly sessions: SessionsService,
    private readonly links: SignInLinksService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
    private readonly limits: SignInRequestLimits,
  ) {}

  /** A new invited user, mailed a sign-in link valid 7 days by the worker once the user is saved. */
  invite(by: ChangeAuthor, organizationId: number, email: string, role: Role): Promise<UserView> {
    return this.transactions.run((tx) => this.inviteIn(tx, by, organizationId, email, role));
  }

  /**
   * As `invite`, in the caller's transaction (an organization created with its owner): nothing is
   * mailed unless it commits. Within MAX_INVITATIONS_PER_DAY (429: each mails someone) and
   * MAX_USERS_PER_ORGANIZATION (422).
   */
  async inviteIn(tx: Transaction, by: ChangeAuthor, organizationId: number, email: string, role: Role): Promise<UserView> {
    const retryAfter = await this.limits.invitationRefused(organizationId);
    if (retryAfter !== undefined) throw new RateLimitedError(retryAfter, 'the organization has sent as many invitations as MAX_INVITATIONS_PER_DAY allows in 24 hours');
    const created = await this.store.createUser(tx, organizationId, email, role);
    if (!created) throw new InvalidRequestError('the organization already has a user with this email address');
    await this.audit.record(tx, { organizationId, by, action: 'user.invited', target: auditTargetOf(created.id), summary: { email, role } });
    await this.links.invite(tx, created);
    return toView(created);
  }

  async list(organizationId: number): Promise<UserView[]> {
    return (await this.store.listUsers(organizationId)).map(toView);
  }

  /**
   * Of `ids`, the organization's people who may work cases (active, with a role of `agent` or
   * stronger), each with their email: whom a case or a team may be given to. Inside `tx` when
   * given.
   */
  async workers(organizationId: number, ids: readonly number[], tx?: Transaction): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const users = await this.store.usersWithIds(organizationId, ids, tx);
    return new Map(users.filter((u) => u.status === 'active' && roleAllows(u.role, 'agent')).map((u) => [u.id, u.email]));
  }

  /** Emails of the organization's users with these ids (any role or status); deleted ones are missing. */
  async emails(organizationId: number, ids: readonly number[], tx?: Transaction): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    return new Map((await this.store.usersWithIds(organizationId, ids, tx)).map((u) => [u.id, u.email]));
  }

  async changeRole(by: ChangeAuthor, organizationId: number, id: number, role: Role): Promise<UserView> {
    await this.change(organizationId, id, async (tx, user, owners) => {
      if (user.role === 'owner' && role !== 'owner' && owners <= 1) throw new LastOwnerError();
      await this.store.setRole(tx, organizationId, id, role);
      await this.audit.record(tx, { organizationId, by, action: 'user.role_changed', target: auditTargetOf(id), summary: { role: { from: user.role, to: role } } });
    });
    return toView((await this.store.findUser(organizationId, id))!);
  }

  /** Deletes the user; their sessions end with them, on every instance at its next poll. */
  async delete(by: ChangeAuthor, organizationId: number, id: number): Promise<void> {
    await this.change(organizationId, id, async (tx, user, owners) => {
      if (user.role === 'owner' && owners <= 1) throw new LastOwnerError();
      await this.store.deleteUser(tx, organizationId, id);
      await this.audit.record(tx, { organizationId, by, action: 'user.deleted', target: auditTargetOf(id), summary: { email: user.email, role: user.role } });
    });
  }

  private async change(organizationId: number, id: number, work: (tx: Transaction, user: User, owners: number) => Promise<void>): Promise<void> {
    const found = await this.sessions.changeUser(id, (tx) => this.store.changeUser(tx, organizationId, id, async (user, owners) => {
      await work(tx, user, owners);
      return true;
    }));
    if (!found) throw new NotFoundError('user');
  }
}

export function toView(user: User): UserView {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    status: user.status,
    created_at: user.createdAt.toISOString(),
    last_seen_at: user.lastSeenAt?.toISOString() ?? null,
  };
}
