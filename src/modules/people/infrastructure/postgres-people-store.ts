import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Env } from '../../../shared/config/env.js';
import { type OrganizationCap, storeWithinCap } from '../../../shared/database/organization-caps.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import type { Role } from '../../../shared/http/roles.js';
import { PeopleStore, type SpentSignInLink } from '../application/people-store.js';
import type { SignInMailKind } from '../domain/sign-in-mail.js';
import type { SignInMethod, SsoIdentity, StoredSession, User } from '../domain/user.js';

export interface UserRow {
  id: string;
  organization_id: string;
  email: string;
  role: Role;
  status: User['status'];
  created_at: Date;
  last_seen_at: Date | null;
}

const USER_COLUMNS = 'id, organization_id, email, role, status, created_at, last_seen_at';

export const toUser = (row: UserRow): User => ({
  id: Number(row.id),
  organizationId: Number(row.organization_id),
  email: row.email,
  role: row.role,
  status: row.status,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
});

const USERS_CAP: OrganizationCap = { what: 'users', table: 'users', setting: 'MAX_USERS_PER_ORGANIZATION' };

@Injectable()
export class PostgresPeopleStore extends PeopleStore {
  constructor(@InjectDataSource() private readonly db: DataSource, private readonly env: Env) {
    super();
  }

  async createUser(tx: Transaction, organizationId: number, email: string, role: Role): Promise<User | undefined> {
    const rows = (await storeWithinCap(tx, this.env, organizationId, USERS_CAP, (m) => m.query(
      `INSERT INTO users (organization_id, email, role, status) VALUES ($1, $2, $3, 'invited')
       ON CONFLICT (organization_id, lower(email)) DO NOTHING RETURNING ${USER_COLUMNS}`,
      [organizationId, email, role],
    ))) as UserRow[];
    return rows[0] && toUser(rows[0]);
  }

  async activateSsoUser(tx: Transaction, organizationId: number, identity: SsoIdentity, email: string, role: Role): Promise<{ user: User; created: boolean } | undefined> {
    const m = entityManager(tx);
    // TypeORM answers an UPDATE with [rows, count].
    const [linked] = (await m.query(
      `UPDATE users SET status = 'active' WHERE organization_id = $1 AND sso_issuer = $2 AND sso_subject = $3 RETURNING ${USER_COLUMNS}`,
      [organizationId, identity.issuer, identity.subject],
    )) as [UserRow[], number];
    if (linked[0]) return { user: toUser(linked[0]), created: false };
    const created = (await m.query(
      `INSERT INTO users (organization_id, email, role, status, sso_issuer, sso_subject) VALUES ($1, $2, $3, 'active', $4, $5)
       ON CONFLICT DO NOTHING RETURNING ${USER_COLUMNS}`,
      [organizationId, email, role, identity.issuer, identity.subject],
    )) as UserRow[];
    if (created[0]) return { user: toUser(created[0]), created: true };
    // Linked at another provider (the organization moved): the address vouched for by this one links it anew.
    const [rows] = (await m.query(
      `UPDATE users SET status = 'active', sso_issuer = $3, sso_subject = $4
       WHERE organization_id = $1 AND lower(email) = lower($2) AND sso_issuer IS DISTINCT FROM $3 RETURNING ${USER_COLUMNS}`,
      [organizationId, email, identity.issuer, identity.subject],
    )) as [UserRow[], number];
    return rows[0] && { user: toUser(rows[0]), created: false };
  }

  async listUsers(organizationId: number, tx?: Transaction): Promise<User[]> {
    return ((await (tx ? entityManager(tx) : this.db).query(`SELECT ${USER_COLUMNS} FROM users WHERE organization_id = $1 ORDER BY id`, [organizationId])) as UserRow[]).map(toUser);
  }

  async findUser(organizationId: number, id: number): Promise<User | undefined> {
    const rows = (await this.db.query(`SELECT ${USER_COLUMNS} FROM users WHERE organization_id = $1 AND id = $2`, [organizationId, id])) as UserRow[];
    return rows[0] && toUser(rows[0]);
  }

  async usersByEmail(email: string): Promise<User[]> {
    return ((await this.db.query(`SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = lower($1) ORDER BY id`, [email])) as UserRow[]).map(toUser);
  }

  async changeUser<T>(tx: Transaction, organizationId: number, id: number, change: (user: User, owners: number) => Promise<T>): Promise<T | undefined> {
    const m = entityManager(tx);
    // Every owner row is locked, in id order: a concurrent change of another owner waits here.
    const owners = (await m.query(`SELECT id FROM users WHERE organization_id = $1 AND role = 'owner' ORDER BY id FOR UPDATE`, [organizationId])) as unknown[];
    const rows = (await m.query(`SELECT ${USER_COLUMNS} FROM users WHERE organization_id = $1 AND id = $2 FOR UPDATE`, [organizationId, id])) as UserRow[];
    return rows[0] ? change(toUser(rows[0]), owners.length) : undefined;
  }

  async setRole(tx: Transaction, organizationId: number, id: number, role: Role): Promise<void> {
    await entityManager(tx).query('UPDATE users SET role = $3 WHERE organization_id = $1 AND id = $2', [organizationId, id, role]);
  }

  async deleteUser(tx: Transaction, organizationId: number, id: number): Promise<void> {
    await entityManager(tx).query('DELETE FROM users WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  }

  async createSession(tx: Transaction, user: User, idHash: Buffer, expiresAt: Date, method: SignInMethod): Promise<void> {
    await entityManager(tx).query('INSERT INTO sessions (organization_id, user_id, id_hash, expires_at, sign_in_method) VALUES ($1, $2, $3, $4, $5)', [user.organizationId, user.id, idHash, expiresAt, method]);
  }

  async findSession(idHash: Buffer): Promise<StoredSession | undefined> {
    const rows = (await this.db.query('SELECT organization_id, user_id, last_seen_at, expires_at FROM sessions WHERE id_hash = $1', [idHash])) as {
      organization_id: string;
      user_id: string;
      last_seen_at: Date;
      expires_at: Date;
    }[];
    const row = rows[0];
    return row && { organizationId: Number(row.organization_id), userId: Number(row.user_id), lastSeenAt: row.last_seen_at, expiresAt: row.expires_at };
  }

  async touchSession(idHash: Buffer): Promise<void> {
    await this.db.query(
      `WITH s AS (UPDATE sessions SET last_seen_at = now() WHERE id_hash = $1 RETURNING organization_id, user_id)
       UPDATE users u SET last_seen_at = now() FROM s WHERE u.organization_id = s.organization_id AND u.id = s.user_id`,
      [idHash],
    );
  }

  async deleteSession(tx: Transaction, idHash: Buffer): Promise<void> {
    await entityManager(tx).query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
  }

  async deleteSessionsSignedInBy(tx: Transaction, organizationId: number, method: SignInMethod, sparing: number | undefined): Promise<Buffer[]> {
    const [rows] = (await entityManager(tx).query(
      'DELETE FROM sessions WHERE organization_id = $1 AND sign_in_method = $2 AND user_id IS DISTINCT FROM $3 RETURNING id_hash',
      [organizationId, method, sparing ?? null],
    )) as [{ id_hash: Buffer }[], number];
    return rows.map((row) => row.id_hash);
  }

  async queueSignInMail(tx: Transaction, user: User, kind: SignInMailKind): Promise<void> {
    await entityManager(tx).query('INSERT INTO sign_in_mails (organization_id, user_id, kind) VALUES ($1, $2, $3)', [user.organizationId, user.id, kind]);
  }

  async createSignInLink(user: Pick<User, 'id' | 'organizationId'>, tokenHash: Buffer, expiresAt: Date): Promise<void> {
    await this.db.query('INSERT INTO sign_in_links (organization_id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)', [user.organizationId, user.id, tokenHash, expiresAt]);
  }

  async signInLinkUsable(tokenHash: Buffer): Promise<boolean> {
    const rows = (await this.db.query('SELECT 1 FROM sign_in_links WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()', [tokenHash])) as unknown[];
    return rows.length > 0;
  }

  async signInLinkUser(tx: Transaction, tokenHash: Buffer): Promise<User | undefined> {
    const rows = (await entityManager(tx).query(
      `SELECT u.id, u.organization_id, u.email, u.role, u.status, u.created_at, u.last_seen_at
       FROM sign_in_links l JOIN users u ON u.organization_id = l.organization_id AND u.id = l.user_id WHERE l.token_hash = $1`,
      [tokenHash],
    )) as UserRow[];
    return rows[0] && toUser(rows[0]);
  }

  async redeemSignInLink(tx: Transaction, tokenHash: Buffer): Promise<User | undefined> {
    // TypeORM answers an UPDATE with [rows, count].
    const [rows] = (await entityManager(tx).query(
      `WITH link AS (
         UPDATE sign_in_links SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         RETURNING organization_id, user_id)
       UPDATE users u SET status = 'active' FROM link WHERE u.organization_id = link.organization_id AND u.id = link.user_id
       RETURNING u.id, u.organization_id, u.email, u.role, u.status, u.created_at, u.last_seen_at`,
      [tokenHash],
    )) as [UserRow[], number];
    return rows[0] && toUser(rows[0]);
  }

  async spentSignInLink(tx: Transaction, tokenHash: Buffer): Promise<SpentSignInLink | undefined> {
    const rows = (await entityManager(tx).query(
      `SELECT u.id, u.organization_id, u.email, u.role, u.status, u.created_at, u.last_seen_at, l.used_at IS NOT NULL AS used
       FROM sign_in_links l JOIN users u ON u.organization_id = l.organization_id AND u.id = l.user_id WHERE l.token_hash = $1`,
      [tokenHash],
    )) as (UserRow & { used: boolean })[];
    return rows[0] && { user: toUser(rows[0]), reason: rows[0].used ? 'used' : 'expired' };
  }
}
