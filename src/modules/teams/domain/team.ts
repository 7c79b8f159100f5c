import { InvalidRequestError } from '../../../shared/errors/app-error.js';

/** A team of an organization's people who work cases together (casework.md, section 2). */
export interface Team {
  id: number;
  organizationId: number;
  name: string;
  memberIds: number[];
  createdAt: Date;
}

export const MAX_TEAM_NAME = 200;
/** A team is a handful of people; the bound keeps a member list (and its checks) small. */
export const MAX_TEAM_MEMBERS = 500;

export class TeamNameTakenError extends InvalidRequestError {
  constructor() {
    super('the organization already has a team with this name', [{ path: '/name', error: 'already taken by another team of the organization' }]);
  }
}

/** Member ids that are no active person of the organization with a role of `agent` or stronger, at their pointers. */
export class NotWorkersError extends InvalidRequestError {
  constructor(path: string, ids: readonly { index: number; id: number }[]) {
    super('every member must be an active user of the organization with a role of agent or stronger', ids.map(({ index, id }) => ({ path: `${path}/${index}`, error: `user ${id} is not an active agent (or stronger) of the organization` })));
  }
}

/** The audit target of a team's changes. */
export const teamTarget = (id: number) => ({ type: 'team', id: String(id) });
