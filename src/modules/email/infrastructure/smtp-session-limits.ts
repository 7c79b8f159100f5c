import type { SMTPServerSession } from 'smtp-server';
import { Semaphore } from '../../../shared/concurrency/semaphore.js';
import { clientAddressGroup } from '../../../shared/net/ip-address.js';

/**
 * What one client may hold of the listener: connections at once per address group (an IPv6 /64
 * is one client, see clientAddressGroup), messages in progress at once per address group, and
 * refused recipients per connection. Sessions are the keys, so a connection smtp-server closes
 * before `admit` (over maxClients) is never counted.
 */
export class SmtpSessionLimits {
  private readonly connectionsByGroup = new Map<string, number>();
  /** Kept while a message of the group holds or awaits a slot, so idle groups cost nothing. */
  private readonly messagesByGroup = new Map<string, { slots: Semaphore; messages: number }>();
  private readonly groupOf = new WeakMap<SMTPServerSession, string>();
  private readonly refusals = new WeakMap<SMTPServerSession, number>();

  constructor(
    private readonly connectionsPerAddress: number,
    private readonly refusedRecipients: number,
    private readonly messagesPerAddress: number,
  ) {}

  /** Counts the connection in, or false when its address group holds all it may. */
  admit(session: SMTPServerSession): boolean {
    const group = clientAddressGroup(session.remoteAddress);
    const open = this.connectionsByGroup.get(group) ?? 0;
    if (open >= this.connectionsPerAddress) return false;
    this.connectionsByGroup.set(group, open + 1);
    this.groupOf.set(session, group);
    return true;
  }

  leave(session: SMTPServerSession): void {
    const group = this.groupOf.get(session);
    if (group === undefined) return;
    this.groupOf.delete(session);
    const open = (this.connectionsByGroup.get(group) ?? 1) - 1;
    if (open > 0) this.connectionsByGroup.set(group, open);
    else this.connectionsByGroup.delete(group);
  }

  /**
   * Resolves, once the session's address group holds fewer than its share of messages in
   * progress, with the function that gives the slot back; rejects if `deadline` aborts first.
   */
  async messageSlot(session: SMTPServerSession, deadline: AbortSignal): Promise<() => void> {
    const group = this.groupOf.get(session) ?? clientAddressGroup(session.remoteAddress);
    let entry = this.messagesByGroup.get(group);
    if (!entry) this.messagesByGroup.set(group, (entry = { slots: new Semaphore(this.messagesPerAddress), messages: 0 }));
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
    this.refusals.set(session, (this.refusals.get(session) ?? 0) + 1);
  }

  /** Whether the connection had its share of refused recipients: the next RCPT TO closes it unasked. */
  refusedEnough(session: SMTPServerSession): boolean {
    return (this.refusals.get(session) ?? 0) >= this.refusedRecipients;
  }
}
