/**
 * The roles of an organization's people, weakest first: each may do everything the ones before
 * it may (docs: people.md, section 1; `agent`, the people who work cases: casework.md, section 1). An admin token acts with the `admin` role.
 */
export const ROLES = ['viewer', 'agent', 'editor', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** Whether a caller of role `held` may use a route that requires at least `required`. */
export function roleAllows(held: Role, required: Role): boolean {
  return ROLES.indexOf(held) >= ROLES.indexOf(required);
}
