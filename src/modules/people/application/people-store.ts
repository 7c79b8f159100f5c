import type { Transaction } from '../../../shared/database/transaction.js';
import type { Role } from '../../../shared/http/roles.js';
import type { SignInMailKind } from '../domain/sign-in-mail.js';
import type { SignInMethod, SsoIdentity, StoredSession, User } from '../domain/user.js';

export interface SpentSignInLink {
  user: User;
  reason: 'used' | 'expired' | 'sso_required';
}

/** Where users, their sessions and their sign-in links are kept; bound to the module's infrastructure. */
export abstract class PeopleStore {
  /** A new invited user; undefined when the organization already has a user with this address; OrganizationCapReachedError past MAX_USERS_PER_ORGANIZATION. */
  abstract createUser(tx: Transaction, organizationId: number, email: string, role: Role): Promise<User | undefined>;
  /**
   * The organization's user a single sign-on signs in, now active: the one linked to the
   * provider's identity; else the one with this address (any case), linked to it now, unless it
   * is linked to another identity at this same provider (then undefined); else a new one with
   * `role`, linked to it.
   */
  abstract activateSsoUser(tx: Transaction, organizationId: number, identity: SsoIdentity, email: string, role: Role): Promise<{ user: User; created: boolean } | undefined>;
  /** Oldest first; inside `tx` when given (a change that already holds locks takes no second connection). */
  abstract listUsers(organizationId: number, tx?: Transaction): Promise<User[]>;
  abstract findUser(organizationId: number, id: number): Promise<User | undefined>;
  /** The users with these ids (deleted ones missing), inside `tx` when given: what a check of a few people reads, not the whole organization. */
  abstract usersWithIds(organizationId: number, ids: readonly number[], tx?: Transaction): Promise<User[]>;
  /** The users of every organization with this address (any case). */
  abstract usersByEmail(email: string): Promise<User[]>;
  /**
   * Runs `change` on the user under a lock of the organization's owners, so two owners demoting
   * each other at once cannot leave none; `owners` is how many there are before the change.
   */
  abstract changeUser<T>(tx: Transaction, organizationId: number, id: number, change: (user: User, owners: number) => Promise<T>): Promise<T | undefined>;
  abstract setRole(tx: Transaction, organizationId: number, id: number, role: Role): Promise<void>;
  /** Deletes the user with their sessions and links. */
  abstract deleteUser(tx: Transaction, organizationId: number, id: number): Promise<void>;

  abstract createSession(tx: Transaction, user: User, idHash: Buffer, expiresAt: Date, method: SignInMethod): Promise<void>;
  abstract findSession(idHash: Buffer): Promise<StoredSession | undefined>;
  /** Notes that the session (and its user) was just used. */
  abstract touchSession(idHash: Buffer): Promise<void>;
  abstract deleteSession(tx: Transaction, idHash: Buffer): Promise<void>;
  /** Deletes the organization's sessions signed in by `method`, but those of user `sparing`; answers their id hashes. */
  abstract deleteSessionsSignedInBy(tx: Transaction, organizationId: number, method: SignInMethod, sparing: number | undefined): Promise<Buffer[]>;

  /** Queues a mail to the user, in the transaction that asks for it: the worker sends it once that commits. */
  abstract queueSignInMail(tx: Transaction, user: User, kind: SignInMailKind): Promise<void>;
  abstract createSignInLink(user: Pick<User, 'id' | 'organizationId'>, tokenHash: Buffer, expiresAt: Date): Promise<void>;
  /** Whether the link is unused and still valid (nothing changes). */
  abstract signInLinkUsable(tokenHash: Buffer): Promise<boolean>;
  /** The user a link was issued to, whatever its state; undefined for a link never issued. */
  abstract signInLinkUser(tx: Transaction, tokenHash: Buffer): Promise<User | undefined>;
  /** Uses the link up and answers its user, now active; undefined for an unknown, used or expired link. */
  abstract redeemSignInLink(tx: Transaction, tokenHash: Buffer): Promise<User | undefined>;
  /** The user of a link that can no longer be used, and why; undefined for a link never issued. */
  abstract spentSignInLink(tx: Transaction, tokenHash: Buffer): Promise<SpentSignInLink | undefined>;
}
