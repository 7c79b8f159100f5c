import { api, type User } from './api.ts';
import { casework, signedInPerson, type PersonRef, type Team } from './casework-api.ts';
import { useLoad, type Loaded } from './hooks.ts';
import { can, ROLES } from './session.ts';

export interface Assignables {
  /** null: the service keeps no teams. */
  teams: Team[] | null;
  /** Who a case may be assigned to, by email where the caller can know it. */
  people: PersonRef[];
}

/**
 * The teams and the people cases can be assigned to. Only an owner may list users with their
 * addresses; anyone else knows the members of the teams by id only, so those are named by
 * id unless the address is known otherwise (the caller, the people in `known`). Nothing is
 * asked for unless `enabled`.
 */
export function useAssignables(known: (PersonRef | null | undefined)[] = [], enabled = true): Loaded<Assignables> {
  return useLoad(async () => {
    if (!enabled) return { teams: null, people: [] };
    const [teams, users] = await Promise.all([casework.teams(), can('listUsers') ? api.get<{ users: User[] }>('/users').then((r) => r.users) : Promise.resolve([])]);
    const emails = new Map<number, string>();
    for (const person of [signedInPerson(), ...known]) if (person) emails.set(person.id, person.email);
    const workers = users.filter((user) => user.status === 'active' && ROLES.indexOf(user.role) >= ROLES.indexOf('agent'));
    for (const user of workers) emails.set(user.id, user.email);
    const ids = new Set([...emails.keys(), ...(teams ?? []).flatMap((team) => team.member_ids)]);
    const people = [...ids].map((id) => ({ id, email: emails.get(id) ?? `User #${id}` })).sort((a, b) => a.email.localeCompare(b.email));
    return { teams, people };
  }, [known.map((person) => person?.id).join(), enabled]);
}
