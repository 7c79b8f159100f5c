import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import type { Actor } from './case.js';

/** How urgent a case is (casework.md, section 2); a new case is `normal`. */
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const DEFAULT_PRIORITY: Priority = 'normal';

/** Who works a case: its assignee and its team, as people read them at the change (an email, a team name). */
export interface Assignment {
  assignee: { id: number; email: string } | null;
  team: { id: number; name: string } | null;
}

/** The assignee as people read it: null for none, and for a user deleted since (no email read). */
export function assigneeNamed(assigneeId: number | null, emails: ReadonlyMap<number, string>): Assignment['assignee'] {
  const email = assigneeId === null ? undefined : emails.get(assigneeId);
  return email === undefined ? null : { id: assigneeId!, email };
}

/** The timeline's actor for the author of an admin change: the signed-in person, or the admin token. */
export function actorOf(by: ChangeAuthor): Actor {
  return by.actor.type === 'user' ? { kind: 'user', userId: Number(by.actor.id) } : { kind: 'admin_token', tokenId: Number(by.actor.id) };
}
