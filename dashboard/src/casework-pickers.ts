import { api, type User } from './api.ts';
import { casework, signedInPerson, type PersonRef, type Team } from './casework-api.ts';
import { useLoad, type Loaded } from './hooks.ts';
import { can, ROLES } from './session.ts';

export interface Assignables {
  teams: Team[];
  /** Who a case may be assigned to: the teams' members, the caller, the people in `known`, and for an owner every active user who may work cases. */
  people: PersonRef[];
}

/**
 * The teams and the people cases can be assigned to, named by email: the teams list names its
 * members for anyone who works cases (listing users is an owner's, so only an owner also sees
 * the people on no team). Nothing is asked for
 * unless `enabled`.
 */
export function useAssignables(known: (PersonRef | null | undefined)[] = [], enabled = true): Loaded<Assignables> {
  return useLoad(async () => {
    if (!enabled) return { teams: [], people: [] };
    const [teams, users] = await Promise.all([casework.teams(), can('listUsers') ? api.get<{ users: User[] }>('/users').then((r) => r.users) : Promise.resolve([])]);
    const workers = users.filter((user) => user.status === 'active' && ROLES.indexOf(user.role) >= ROLES.indexOf('agent'));
    const emails = new Map<number, string>();
    for (const person of [signedInPerson(), ...known, ...teams.flatMap((team) => team.members), ...workers]) if (person) emails.set(person.id, person.email);
    const people = [...emails].map(([id, email]) => ({ id, email })).sort((a, b) => a.email.localeCompare(b.email));
    return { teams, people };
  }, [known.map((person) => person?.id).join(), enabled]);
}
