/** Who made a change: a user (signed in), an admin token, or the deployment's operator. */
export interface AuditActor {
  type: 'user' | 'token' | 'operator';
  id: string;
  name: string;
}

/** A signed-in person as the actor of a change: their user id, named by their email address. */
export function userActor(user: { id: number; email: string }): AuditActor {
  return { type: 'user', id: String(user.id), name: user.email };
}

/** Who made a change and from which address: what every audited change carries from its request. */
export interface ChangeAuthor {
  actor: AuditActor;
  /** The client's IP address as the service saw it (behind the deployment's trusted proxies). */
  address: string | null;
}

/** What was changed: a workflow, a token, a subscription, ... and its id (a secret's is its name). */
export interface AuditTarget {
  type: string;
  id: string;
}

/**
 * What a change says about itself. `summary` names what changed (JSON Pointers of a draft's
 * changed parts, from/to of settings) and never holds a secret value, a token or a webhook URL.
 */
export interface AuditedChange {
  organizationId: number;
  by: ChangeAuthor;
  action: string;
  target: AuditTarget;
  summary?: Record<string, unknown>;
}

/**
 * Where an entry sits in the log: the transaction that wrote it, then its id. Commits follow this
 * order for every entry a reader can see (see the audit-commit-order migration).
 */
export interface AuditPosition {
  xid: string;
  id: string;
}

export interface AuditEntry {
  id: string;
  position: AuditPosition;
  at: Date;
  actor: AuditActor;
  action: string;
  target: AuditTarget;
  address: string | null;
  summary: Record<string, unknown>;
}

/** Filters of the audit list; each matches exactly (`actor` is `type:id`, `target` is `type:id` or a type alone). */
export interface AuditFilters {
  actor?: { type: string; id: string };
  action?: string;
  target?: { type: string; id?: string };
}
