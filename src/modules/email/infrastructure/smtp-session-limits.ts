import type { SMTPServerSession } from 'smtp-server';
import { Semaphore } from '../../../shared/concurrency/semaphore.js';
import { clientAddressGroup } from '../../../shared/net/ip-address.js';

/** Whether a connection is let in; when the listener is full, which idle one makes room for it. */
export type Admission = { admitted: true; evicted?: SMTPServerSession } | { admitted: false; refusal: 'address_full' | 'listener_full' };

/** A connection let in: its address group, when it last delivered a message (or connected), whether a message is under way, how many recipients it was refused. */
interface AdmittedConnection {
  group: string;
  deliveredAt: number;
  receiving: boolean;
  refusedRecipients: number;
}

/**
 * What one client may hold of the listener: connections at once per address group (an IPv6 /64
 * is one client, see clientAddressGroup), messages in progress at once per address group, and
 * refused recipients per connection. Sessions are the keys, so a connection smtp-server closes
 * before `admit` is never counted.
 *
 * All the listener's connections together are bounded too, and a client could hold them all
 * with a few networks, each connection kept open by a NOOP now and then (SMTP's idle timer
 * restarts at every command). So when the listener is full, a new connection takes the place of
 * the one that has gone longest without delivering a message, once that is `idleBeforeEviction`
 * (it is told 421 and closed), as Postfix does under stress. A connection whose message is under
 * way is never the one.
 */
export class SmtpSessionLimits {
  private readonly admitted = new Map<SMTPServerSession, AdmittedConnection>();
  private readonly connectionsByGroup = new Map<string, number>();
  /** Kept while a message of the group holds or awaits a slot, so idle groups cost nothing. */
  private readonly messagesByGroup = new Map<string, { slots: Semaphore; messages: number }>();

  constructor(
    private readonly bounds: { connections: number; connectionsPerAddress: number; refusedRecipients: number; messagesPerAddress: number; idleBeforeEviction: number },
    private readonly clock: () => number = Date.now,
  ) {}

  /** Counts the connection in, making room by evicting an idle one if the listener is full; refused when its address group holds all it may, or none is idle enough. */
  admit(session: SMTPServerSession): Admission {
    const group = clientAddressGroup(session.remoteAddress);
    const open = this.connectionsByGroup.get(group) ?? 0;
    if (open >= this.bounds.connectionsPerAddress) return { admitted: false, refusal: 'address_full' };
    let evicted: SMTPServerSession | undefined;
    if (this.admitted.size >= this.bounds.connections) {
      evicted = this.longestIdle();
      if (!evicted) return { admitted: false, refusal: 'listener_full' };
      this.leave(evicted);
    }
    this.connectionsByGroup.set(group, open + 1);
    this.admitted.set(session, { group, deliveredAt: this.clock(), receiving: false, refusedRecipients: 0 });
    return evicted ? { admitted: true, evicted } : { admitted: true };
  }

  /** A message's transfer began (DATA): the connection is not idle until it ends. */
  receiving(session: SMTPServerSession): void {
    const state = this.admitted.get(session);
    if (state) state.receiving = true;
  }

  /** The message's transfer ended, taken or refused: the connection's idle time starts again. */
  received(session: SMTPServerSession): void {
    const state = this.admitted.get(session);
    if (state) Object.assign(state, { receiving: false, deliveredAt: this.clock() });
  }

  leave(session: SMTPServerSession): void {
    const group = this.admitted.get(session)?.group;
    if (group === undefined) return;
    this.admitted.delete(session);
    const open = (this.connectionsByGroup.get(group) ?? 1) - 1;
    if (open > 0) this.connectionsByGroup.set(group, open);
    else this.connectionsByGroup.delete(group);
  }

  /**
   * Resolves, once the session's address group holds fewer than its share of messages in
   * progress, with the function that gives the slot back; rejects if `deadline` aborts first.
   */
  async messageSlot(session: SMTPServerSession, deadline: AbortSignal): Promise<() => void> {
    const group = this.admitted.get(session)?.group ?? clientAddressGroup(session.remoteAddress);
    let entry = this.messagesByGroup.get(group);
    if (!entry) this.messagesByGroup.set(group, (entry = { slots: new Semaphore(this.bounds.messagesPerAddress), messages: 0 }));
    const held = entry;
    held.messages++;
    const done = () => {
      if (--held.messages === 0) this.messagesByGroup.delete(group);
    };
    try {
      const release = await held.slots.acquire(1, deadline);
      return () => {
        release();
        done();
      };
    } catch (err) {
      done();
      throw err;
    }
  }

  recipientRefused(session: SMTPServerSession): void {
    const state = this.admitted.get(session);
    if (state) state.refusedRecipients++;
  }

  /** Whether the connection had its share of refused recipients: the next RCPT TO closes it unasked. */
  refusedEnough(session: SMTPServerSession): boolean {
    return (this.admitted.get(session)?.refusedRecipients ?? 0) >= this.bounds.refusedRecipients;
  }

  /** The connection longest without a delivered message, if that is long enough to evict it and no message is under way on it. */
  private longestIdle(): SMTPServerSession | undefined {
    let idlest: { session: SMTPServerSession; since: number } | undefined;
    for (const [session, { deliveredAt, receiving }] of this.admitted) {
      if (!receiving && (idlest === undefined || deliveredAt < idlest.since)) idlest = { session, since: deliveredAt };
    }
    return idlest && this.clock() - idlest.since >= this.bounds.idleBeforeEviction ? idlest.session : undefined;
  }
}
