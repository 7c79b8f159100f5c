import type { SMTPServerSession } from 'smtp-server';
import { clientAddressGroup } from '../../../shared/net/ip-address.js';

/**
 * What one client may hold of the listener: connections at once per address group (an IPv6 /64
 * is one client, see clientAddressGroup), and refused recipients per connection. Sessions are the
 * keys, so a connection smtp-server closes before `admit` (over maxClients) is never counted.
 */
export class SmtpSessionLimits {
  private readonly connectionsByGroup = new Map<string, number>();
  private readonly groupOf = new WeakMap<SMTPServerSession, string>();
  private readonly refusals = new WeakMap<SMTPServerSession, number>();

  constructor(private readonly connectionsPerAddress: number, private readonly refusedRecipients: number) {}

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

  recipientRefused(session: SMTPServerSession): void {
    this.refusals.set(session, (this.refusals.get(session) ?? 0) + 1);
  }

  /** Whether the connection had its share of refused recipients: the next RCPT TO closes it unasked. */
  refusedEnough(session: SMTPServerSession): boolean {
    return (this.refusals.get(session) ?? 0) >= this.refusedRecipients;
  }
}
