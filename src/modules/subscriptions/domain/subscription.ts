/** A subscription as stored, without its signing secrets. */
export interface Subscription {
  id: number;
  organizationId: number;
  url: string;
  events: string[];
  /** Null: every workflow. */
  workflowIds: number[] | null;
  createdAt: Date;
  /** Failing without a success since then; null while healthy. */
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}

/** One attempt to send one event to a subscription. */
export interface DeliveryAttemptRecord {
  deliveryId: number;
  eventId: string;
  eventType: string;
  caseId: number;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  delivered: boolean;
  attemptedAt: Date;
}
