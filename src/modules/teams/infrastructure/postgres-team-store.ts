import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isUniqueViolation } from '../../../shared/database/database-errors.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { TeamStore } from '../application/team-store.js';
import type { AssignStrategy } from '../../automation/application/team-assignments.js';
import type { Team } from '../domain/team.js';

interface TeamRow {
  id: string;
  organization_id: string;
  name: string;
  member_ids: string[] | null;
  created_at: Date;
}

const toTeam = (row: TeamRow): Team => ({
  id: Number(row.id),
  organizationId: Number(row.organization_id),
  name: row.name,
  memberIds: (row.member_ids ?? []).map(Number),
  createdAt: row.created_at,
});

/** The unique index of a name per organization, whatever the case of its letters (migration 1764300100000-teams). */
const TEAM_NAME_INDEX = 'teams_name';
const MEMBERS = `(SELECT array_agg(m.user_id ORDER BY m.user_id) FROM team_members m WHERE m.organization_id = t.organization_id AND m.team_id = t.id) AS member_ids`;
const TEAM_COLUMNS = `t.id, t.organization_id, t.name, t.created_at, ${MEMBERS}`;

@Injectable()
export class PostgresTeamStore extends TeamStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async create(tx: Transaction, organizationId: number, name: string, memberIds: readonly number[]): Promise<Team | undefined> {
    const m = entityManager(tx);
    const [row] = (await m.query(
      `INSERT INTO teams (organization_id, name) VALUES ($1, $2) ON CONFLICT (organization_id, lower(name)) DO NOTHING RETURNING id`,
      [organizationId, name],
    )) as { id: string }[];
    if (!row) return undefined;
    await this.setMembers(tx, organizationId, Number(row.id), memberIds);
    return this.find(tx, organizationId, Number(row.id));
  }

  async list(organizationId: number): Promise<Team[]> {
    const rows = (await this.db.query(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.organization_id = $1 ORDER BY t.id`, [organizationId])) as TeamRow[];
    return rows.map(toTeam);
  }

  async find(tx: Transaction | null, organizationId: number, id: number): Promise<Team | undefined> {
    const sql = `SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.organization_id = $1 AND t.id = $2${tx ? ' FOR UPDATE' : ''}`;
    const rows = (await (tx ? entityManager(tx) : this.db).query(sql, [organizationId, id])) as TeamRow[];
    return rows[0] && toTeam(rows[0]);
  }

  async findByName(tx: Transaction, organizationId: number, name: string): Promise<Team | undefined> {
    const rows = (await entityManager(tx).query(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.organization_id = $1 AND lower(t.name) = lower($2) FOR UPDATE`, [organizationId, name])) as TeamRow[];
    return rows[0] && toTeam(rows[0]);
  }

  async findName(tx: Transaction, organizationId: number, id: number): Promise<string | undefined> {
    const [row] = (await entityManager(tx).query(`SELECT name FROM teams WHERE organization_id = $1 AND id = $2`, [organizationId, id])) as { name: string }[];
    return row?.name;
  }

  async rename(tx: Transaction, organizationId: number, id: number, name: string): Promise<boolean> {
    const [taken] = (await entityManager(tx).query(`SELECT 1 FROM teams WHERE organization_id = $1 AND lower(name) = lower($2) AND id <> $3`, [organizationId, name, id])) as unknown[];
    if (taken) return false;
    try {
      await entityManager(tx).query(`UPDATE teams SET name = $3 WHERE organization_id = $1 AND id = $2`, [organizationId, id, name]);
    } catch (err) {
      // Another team took the name after the check, in a transaction that committed meanwhile.
      if (isUniqueViolation(err, TEAM_NAME_INDEX)) return false;
      throw err;
    }
    return true;
  }

  async setMembers(tx: Transaction, organizationId: number, id: number, memberIds: readonly number[]): Promise<void> {
    const m = entityManager(tx);
    await m.query(`DELETE FROM team_members WHERE organization_id = $1 AND team_id = $2 AND NOT (user_id = ANY($3::bigint[]))`, [organizationId, id, memberIds]);
    await m.query(
      `INSERT INTO team_members (organization_id, team_id, user_id) SELECT $1, $2, unnest($3::bigint[]) ON CONFLICT DO NOTHING`,
      [organizationId, id, memberIds],
    );
  }

  async delete(tx: Transaction, organizationId: number, id: number): Promise<void> {
    await entityManager(tx).query(`DELETE FROM teams WHERE organization_id = $1 AND id = $2`, [organizationId, id]);
  }

  /**
   * `round_robin`: the member waiting longest since their last assignment (never first, then by
   * id); `balanced`: the fewest open cases, ties as round_robin. The caller holds the team's row
   * lock, so two assignments of one team pick one after the other, each seeing the other's.
   */
  async pick(tx: Transaction, organizationId: number, teamId: number, candidates: readonly number[], strategy: AssignStrategy, openCases: ReadonlyMap<number, number>, store: boolean): Promise<number | undefined> {
    const m = entityManager(tx);
    const rows = (await m.query(
      `SELECT user_id, last_assigned_at FROM team_members WHERE organization_id = $1 AND team_id = $2 AND user_id = ANY($3::bigint[])
       ORDER BY last_assigned_at ASC NULLS FIRST, user_id`,
      [organizationId, teamId, candidates],
    )) as { user_id: string }[];
    const ordered = rows.map((row) => Number(row.user_id));
    const load = (id: number) => (strategy === 'balanced' ? (openCases.get(id) ?? 0) : 0);
    // A stable sort keeps the waiting order among equal loads.
    const chosen = [...ordered].sort((a, b) => load(a) - load(b))[0];
    if (chosen !== undefined && store) {
      await m.query(`UPDATE team_members SET last_assigned_at = clock_timestamp() WHERE organization_id = $1 AND team_id = $2 AND user_id = $3`, [organizationId, teamId, chosen]);
    }
    return chosen;
  }
}
