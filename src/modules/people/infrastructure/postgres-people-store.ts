import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Env } from '../../../shared/config/env.js';
import { CAP_COUNT, capCountSql, type OrganizationCap, storeWithinCap } from '../../../shared/database/organization-caps.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import type { Role } from '../../../shared/http/roles.js';
import { PeopleStore, type SpentSignInLink } from '../application/people-store.js';
import type { SignInMailKind } from '../domain/sign-in-mail.js';
import type { SignInMethod, SsoIdentity, StoredSession, User } from '../domain/user.js';

const USER_COLUMNS = 'id, organization_id, email, role, status, created_at, last_seen_at';
/** A user's row, as the people module's statements answer it. */
export const USER_ROW = {
  id: column.int8,
  organization_id: column.int8,
  email: column.text,
  role: column.textOf<Role>(),
  status: column.textOf<User['status']>(),
  created_at: column.timestamptz,
  last_seen_at: column.nullable(column.timestamptz),
};
export type UserRow = RowOf<typeof USER_ROW>;

export const toUser = (row: UserRow): User => ({
  id: Number(row.id),
  organizationId: Number(row.organization_id),
  email: row.email,
  role: row.role,
  status: row.status,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
});

const INSERT_INVITED = statement(
  `INSERT INTO users (organization_id, email, role, status) VALUES ($1, $2, $3, 'invited')
   ON CONFLICT (organization_id, lower(email)) DO NOTHING RETURNING ${USER_COLUMNS}`,
  USER_ROW,
);
const ACTIVATE_SSO_LINKED = statement(`UPDATE users SET status = 'active' WHERE organization_id = $1 AND sso_issuer = $2 AND sso_subject = $3 RETURNING ${USER_COLUMNS}`, USER_ROW);
const INSERT_SSO_USER = statement(
  `INSERT INTO users (organization_id, email, role, status, sso_issuer, sso_subject) VALUES ($1, $2, $3, 'active', $4, $5)
   ON CONFLICT DO NOTHING RETURNING ${USER_COLUMNS}`,
  USER_ROW,
);
const RELINK_SSO_USER = statement(
  `UPDATE users SET status = 'active', sso_issuer = $3, sso_subject = $4
   WHERE organization_id = $1 AND lower(email) = lower($2) AND sso_issuer IS DISTINCT FROM $3 RETURNING ${USER_COLUMNS}`,
  USER_ROW,
);
const LIST_USERS = statement(`SELECT ${USER_COLUMNS} FROM users WHERE organization_id = $1 ORDER BY id`, USER_ROW);
const FIND_USER = statement(`SELECT ${USER_COLUMNS} FROM users WHERE organization_id = $1 AND id = $2`, USER_ROW);
const USERS_WITH_IDS = statement(`SELECT ${USER_COLUMNS} FROM users WHERE organization_id = $1 AND id = ANY($2::bigint[]) ORDER BY id`, USER_ROW);
const USERS_BY_EMAIL = statement(`SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = lower($1) ORDER BY id`, USER_ROW);
const LOCK_OWNERS = statement(`SELECT id FROM users WHERE organization_id = $1 AND role = 'owner' ORDER BY id FOR UPDATE`, { id: column.int8 });
const LOCK_USER = statement(`SELECT ${USER_COLUMNS} FROM users WHERE organization_id = $1 AND id = $2 FOR UPDATE`, USER_ROW);
const SET_ROLE = statement('UPDATE users SET role = $3 WHERE organization_id = $1 AND id = $2');
const DELETE_USER = statement('DELETE FROM users WHERE organization_id = $1 AND id = $2');
const INSERT_SESSION = statement('INSERT INTO sessions (organization_id, user_id, id_hash, expires_at, sign_in_method) VALUES ($1, $2, $3, $4, $5)');
const FIND_SESSION = statement('SELECT organization_id, user_id, last_seen_at, expires_at FROM sessions WHERE id_hash = $1', {
  organization_id: column.int8,
  user_id: column.int8,
  last_seen_at: column.timestamptz,
  expires_at: column.timestamptz,
});
const TOUCH_SESSION = statement(
  `WITH s AS (UPDATE sessions SET last_seen_at = now() WHERE id_hash = $1 RETURNING organization_id, user_id)
   UPDATE users u SET last_seen_at = now() FROM s WHERE u.organization_id = s.organization_id AND u.id = s.user_id`,
);
const DELETE_SESSION = statement('DELETE FROM sessions WHERE id_hash = $1');
const DELETE_SESSIONS_SIGNED_IN_BY = statement(
  'DELETE FROM sessions WHERE organization_id = $1 AND sign_in_method = $2 AND user_id IS DISTINCT FROM $3 RETURNING id_hash',
  { id_hash: column.bytea },
);
const QUEUE_SIGN_IN_MAIL = statement('INSERT INTO sign_in_mails (organization_id, user_id, kind) VALUES ($1, $2, $3)');
const INSERT_SIGN_IN_LINK = statement('INSERT INTO sign_in_links (organization_id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)');
const USABLE_SIGN_IN_LINK = statement('SELECT true AS usable FROM sign_in_links WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()', { usable: column.bool });
const LINKED_USER_COLUMNS = 'u.id, u.organization_id, u.email, u.role, u.status, u.created_at, u.last_seen_at';
const SIGN_IN_LINK_USER = statement(
  `SELECT ${LINKED_USER_COLUMNS}
   FROM sign_in_links l JOIN users u ON u.organization_id = l.organization_id AND u.id = l.user_id WHERE l.token_hash = $1`,
  USER_ROW,
);
const REDEEM_SIGN_IN_LINK = statement(
  `WITH link AS (
     UPDATE sign_in_links SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
     RETURNING organization_id, user_id)
   UPDATE users u SET status = 'active' FROM link WHERE u.organization_id = link.organization_id AND u.id = link.user_id
   RETURNING ${LINKED_USER_COLUMNS}`,
  USER_ROW,
);
const SPENT_SIGN_IN_LINK = statement(
  `SELECT ${LINKED_USER_COLUMNS}, l.used_at IS NOT NULL AS used
   FROM sign_in_links l JOIN users u ON u.organization_id = l.organization_id AND u.id = l.user_id WHERE l.token_hash = $1`,
  { ...USER_ROW, used: column.bool },
);

const USERS_CAP: OrganizationCap = { what: 'users', count: statement(capCountSql('users'), CAP_COUNT), setting: 'MAX_USERS_PER_ORGANIZATION' };

@Injectable()
export class PostgresPeopleStore extends PeopleStore {
  constructor(@InjectDataSource() private readonly db: DataSource, private readonly env: Env) {
    super();
  }

  async createUser(tx: Transaction, organizationId: number, email: string, role: Role): Promise<User | undefined> {
    const row = await storeWithinCap(tx, this.env, organizationId, USERS_CAP, (m) => firstRowOf(m, INSERT_INVITED, [organizationId, email, role]));
    return row && toUser(row);
  }

  async activateSsoUser(tx: Transaction, organizationId: number, identity: SsoIdentity, email: string, role: Role): Promise<{ user: User; created: boolean } | undefined> {
    const m = entityManager(tx);
    const linked = await firstRowOf(m, ACTIVATE_SSO_LINKED, [organizationId, identity.issuer, identity.subject]);
    if (linked) return { user: toUser(linked), created: false };
    const created = await firstRowOf(m, INSERT_SSO_USER, [organizationId, email, role, identity.issuer, identity.subject]);
    if (created) return { user: toUser(created), created: true };
    // Linked at another provider (the organization moved): the address vouched for by this one links it anew.
    const relinked = await firstRowOf(m, RELINK_SSO_USER, [organizationId, email, identity.issuer, identity.subject]);
    return relinked && { user: toUser(relinked), created: false };
  }

  async listUsers(organizationId: number, tx?: Transaction): Promise<User[]> {
    return (await rowsOf(tx ? entityManager(tx) : this.db, LIST_USERS, [organizationId])).map(toUser);
  }

  async findUser(organizationId: number, id: number): Promise<User | undefined> {
    const row = await firstRowOf(this.db, FIND_USER, [organizationId, id]);
    return row && toUser(row);
  }

  async usersWithIds(organizationId: number, ids: readonly number[], tx?: Transaction): Promise<User[]> {
    return (await rowsOf(tx ? entityManager(tx) : this.db, USERS_WITH_IDS, [organizationId, ids])).map(toUser);
  }

  async usersByEmail(email: string): Promise<User[]> {
    return (await rowsOf(this.db, USERS_BY_EMAIL, [email])).map(toUser);
  }

  async changeUser<T>(tx: Transaction, organizationId: number, id: number, change: (user: User, owners: number) => Promise<T>): Promise<T | undefined> {
    const m = entityManager(tx);
    // Every owner row is locked, in id order: a concurrent change of another owner waits here.
    const owners = await rowsOf(m, LOCK_OWNERS, [organizationId]);
    const row = await firstRowOf(m, LOCK_USER, [organizationId, id]);
    return row ? change(toUser(row), owners.length) : undefined;
  }

  async setRole(tx: Transaction, organizationId: number, id: number, role: Role): Promise<void> {
    await rowsOf(entityManager(tx), SET_ROLE, [organizationId, id, role]);
  }

  async deleteUser(tx: Transaction, organizationId: number, id: number): Promise<void> {
    await rowsOf(entityManager(tx), DELETE_USER, [organizationId, id]);
  }

  async createSession(tx: Transaction, user: User, idHash: Buffer, expiresAt: Date, method: SignInMethod): Promise<void> {
    await rowsOf(entityManager(tx), INSERT_SESSION, [user.organizationId, user.id, idHash, expiresAt, method]);
  }

  async findSession(idHash: Buffer): Promise<StoredSession | undefined> {
    const row = await firstRowOf(this.db, FIND_SESSION, [idHash]);
    return row && { organizationId: Number(row.organization_id), userId: Number(row.user_id), lastSeenAt: row.last_seen_at, expiresAt: row.expires_at };
  }

  async touchSession(idHash: Buffer): Promise<void> {
    await rowsOf(this.db, TOUCH_SESSION, [idHash]);
  }

  async deleteSession(tx: Transaction, idHash: Buffer): Promise<void> {
    await rowsOf(entityManager(tx), DELETE_SESSION, [idHash]);
  }

  async deleteSessionsSignedInBy(tx: Transaction, organizationId: number, method: SignInMethod, sparing: number | undefined): Promise<Buffer[]> {
    const rows = await rowsOf(entityManager(tx), DELETE_SESSIONS_SIGNED_IN_BY, [organizationId, method, sparing ?? null]);
    return rows.map((row) => row.id_hash);
  }

  async queueSignInMail(tx: Transaction, user: User, kind: SignInMailKind): Promise<void> {
    await rowsOf(entityManager(tx), QUEUE_SIGN_IN_MAIL, [user.organizationId, user.id, kind]);
  }

  async createSignInLink(user: Pick<User, 'id' | 'organizationId'>, tokenHash: Buffer, expiresAt: Date): Promise<void> {
    await rowsOf(this.db, INSERT_SIGN_IN_LINK, [user.organizationId, user.id, tokenHash, expiresAt]);
  }

  async signInLinkUsable(tokenHash: Buffer): Promise<boolean> {
    return (await firstRowOf(this.db, USABLE_SIGN_IN_LINK, [tokenHash])) !== undefined;
  }

  async signInLinkUser(tx: Transaction, tokenHash: Buffer): Promise<User | undefined> {
    const row = await firstRowOf(entityManager(tx), SIGN_IN_LINK_USER, [tokenHash]);
    return row && toUser(row);
  }

  async redeemSignInLink(tx: Transaction, tokenHash: Buffer): Promise<User | undefined> {
    const row = await firstRowOf(entityManager(tx), REDEEM_SIGN_IN_LINK, [tokenHash]);
    return row && toUser(row);
  }

  async spentSignInLink(tx: Transaction, tokenHash: Buffer): Promise<SpentSignInLink | undefined> {
    const row = await firstRowOf(entityManager(tx), SPENT_SIGN_IN_LINK, [tokenHash]);
    return row && { user: toUser(row), reason: row.used ? 'used' : 'expired' };
  }
}
