/** A delivery as the sender needs it: the event, where to send it and the sealed signing secret. */
export interface ClaimedDelivery {
  id: number;
  attempt: number;
  eventId: string;
  eventType: string;
  eventAt: Date;
  /** The case as the cases API shows it, as JSON text (exact attributes). */
  caseJson: string;
  /** What the event tells besides the case (a comment), as the members of a JSON object's text; null for nothing. */
  detailsJson: string | null;
  url: string;
  subscriptionId: number;
  secretCiphertext: string;
  /** The secret a rotation replaced, while it still signs (24 hours); null otherwise. */
  previousSecretCiphertext: string | null;
}

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  delivered: boolean;
}

/** What the sender needs of the deliveries' store: take one with a lease, keep the lease, record how it went. */
export abstract class DeliveryAttempts {
  /** The delivery with a lease of `leaseMs`, or null when it is not due or another sender holds it. */
  abstract claim(id: number, leaseMs: number): Promise<ClaimedDelivery | null>;
  abstract renewLease(delivery: ClaimedDelivery, leaseMs: number): Promise<void>;
  /** Records the attempt; a failed one is due again in `retryInMs`, and its subscription is disabled once it has failed for `disableAfterMs`. */
  abstract recordAttempt(delivery: ClaimedDelivery, result: AttemptResult, retryInMs: number, disableAfterMs: number): Promise<void>;
}
