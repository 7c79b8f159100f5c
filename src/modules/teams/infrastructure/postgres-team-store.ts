import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isUniqueViolation } from '../../../shared/database/database-errors.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { TeamStore } from '../application/team-store.js';
import type { AssignStrategy } from '../../automation/application/team-assignments.js';
import type { Team } from '../domain/team.js';

/** The unique index of a name per organization, whatever the case of its letters (migration 1764300100000-teams). */
const TEAM_NAME_INDEX = 'teams_name';
const MEMBERS = `(SELECT array_agg(m.user_id ORDER BY m.user_id) FROM team_members m WHERE m.organization_id = t.organization_id AND m.team_id = t.id) AS member_ids`;
const TEAM_COLUMNS = `t.id, t.organization_id, t.name, t.created_at, ${MEMBERS}`;
const TEAM_ROW = {
  id: column.int8,
  organization_id: column.int8,
  name: column.text,
  created_at: column.timestamptz,
  member_ids: column.nullable(column.int8Array),
};

const INSERT_TEAM = statement(`INSERT INTO teams (organization_id, name) VALUES ($1, $2) ON CONFLICT (organization_id, lower(name)) DO NOTHING RETURNING id`, { id: column.int8 });
const LIST_TEAMS = statement(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.organization_id = $1 ORDER BY t.id`, TEAM_ROW);
const FIND_TEAM = statement(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.organization_id = $1 AND t.id = $2`, TEAM_ROW);
const LOCK_TEAM = statement(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.organization_id = $1 AND t.id = $2 FOR UPDATE`, TEAM_ROW);
const LOCK_TEAM_BY_NAME = statement(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.organization_id = $1 AND lower(t.name) = lower($2) FOR UPDATE`, TEAM_ROW);
const TEAM_NAME = statement(`SELECT name FROM teams WHERE organization_id = $1 AND id = $2`, { name: column.text });
const NAME_TAKEN = statement(`SELECT true AS taken FROM teams WHERE organization_id = $1 AND lower(name) = lower($2) AND id <> $3`, { taken: column.bool });
const RENAME_TEAM = statement(`UPDATE teams SET name = $3 WHERE organization_id = $1 AND id = $2`);
const REMOVE_OTHER_MEMBERS = statement(`DELETE FROM team_members WHERE organization_id = $1 AND team_id = $2 AND NOT (user_id = ANY($3::bigint[]))`);
const ADD_MEMBERS = statement(`INSERT INTO team_members (organization_id, team_id, user_id) SELECT $1, $2, unnest($3::bigint[]) ON CONFLICT DO NOTHING`);
const DELETE_TEAM = statement(`DELETE FROM teams WHERE organization_id = $1 AND id = $2`);
const MEMBERS_BY_WAIT = statement(
  `SELECT user_id, last_assigned_at FROM team_members WHERE organization_id = $1 AND team_id = $2 AND user_id = ANY($3::bigint[])
   ORDER BY last_assigned_at ASC NULLS FIRST, user_id`,
  { user_id: column.int8, last_assigned_at: column.nullable(column.timestamptz) },
);
const MARK_ASSIGNED = statement(`UPDATE team_members SET last_assigned_at = clock_timestamp() WHERE organization_id = $1 AND team_id = $2 AND user_id = $3`);

const toTeam = (row: RowOf<typeof TEAM_ROW>): Team => ({
  id: Number(row.id),
  organizationId: Number(row.organization_id),
  name: row.name,
  memberIds: (row.member_ids ?? []).map(Number),
  createdAt: row.created_at,
});

@Injectable()
export class PostgresTeamStore extends TeamStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async create(tx: Transaction, organizationId: number, name: string, memberIds: readonly number[]): Promise<Team | undefined> {
    const row = await firstRowOf(entityManager(tx), INSERT_TEAM, [organizationId, name]);
    if (!row) return undefined;
    await this.setMembers(tx, organizationId, Number(row.id), memberIds);
    return this.find(tx, organizationId, Number(row.id));
  }

  async list(organizationId: number): Promise<Team[]> {
    return (await rowsOf(this.db, LIST_TEAMS, [organizationId])).map(toTeam);
  }

  async find(tx: Transaction | null, organizationId: number, id: number): Promise<Team | undefined> {
    const row = await (tx ? firstRowOf(entityManager(tx), LOCK_TEAM, [organizationId, id]) : firstRowOf(this.db, FIND_TEAM, [organizationId, id]));
    return row && toTeam(row);
  }

  async findByName(tx: Transaction, organizationId: number, name: string): Promise<Team | undefined> {
    const row = await firstRowOf(entityManager(tx), LOCK_TEAM_BY_NAME, [organizationId, name]);
    return row && toTeam(row);
  }

  async findName(tx: Transaction, organizationId: number, id: number): Promise<string | undefined> {
    return (await firstRowOf(entityManager(tx), TEAM_NAME, [organizationId, id]))?.name;
  }

  async rename(tx: Transaction, organizationId: number, id: number, name: string): Promise<boolean> {
    if (await firstRowOf(entityManager(tx), NAME_TAKEN, [organizationId, name, id])) return false;
    try {
      await rowsOf(entityManager(tx), RENAME_TEAM, [organizationId, id, name]);
    } catch (err) {
      // Another team took the name after the check, in a transaction that committed meanwhile.
      if (isUniqueViolation(err, TEAM_NAME_INDEX)) return false;
      throw err;
    }
    return true;
  }

  async setMembers(tx: Transaction, organizationId: number, id: number, memberIds: readonly number[]): Promise<void> {
    const m = entityManager(tx);
    await rowsOf(m, REMOVE_OTHER_MEMBERS, [organizationId, id, memberIds]);
    await rowsOf(m, ADD_MEMBERS, [organizationId, id, memberIds]);
  }

  async delete(tx: Transaction, organizationId: number, id: number): Promise<void> {
    await rowsOf(entityManager(tx), DELETE_TEAM, [organizationId, id]);
  }

  /**
   * `round_robin`: the member waiting longest since their last assignment (never first, then by
   * id); `balanced`: the fewest open cases, ties as round_robin. The caller holds the team's row
   * lock, so two assignments of one team pick one after the other, each seeing the other's.
   */
  async pick(tx: Transaction, organizationId: number, teamId: number, candidates: readonly number[], strategy: AssignStrategy, openCases: ReadonlyMap<number, number>, store: boolean): Promise<number | undefined> {
    const m = entityManager(tx);
    const rows = await rowsOf(m, MEMBERS_BY_WAIT, [organizationId, teamId, candidates]);
    const ordered = rows.map((row) => Number(row.user_id));
    const load = (id: number) => (strategy === 'balanced' ? (openCases.get(id) ?? 0) : 0);
    // A stable sort keeps the waiting order among equal loads.
    const chosen = [...ordered].sort((a, b) => load(a) - load(b))[0];
    if (chosen !== undefined && store) {
      await rowsOf(m, MARK_ASSIGNED, [organizationId, teamId, chosen]);
    }
    return chosen;
  }
}
