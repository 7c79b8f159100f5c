import type { Digest, DigestSchedule, Period } from '../domain/digest.js';

export interface NewDigest extends DigestSchedule {
  recipients: string[];
  workflowIds: number[] | null;
}

/** One send of a digest for one period, claimed by the worker that sends it. */
export interface ClaimedSend {
  sendId: number;
  digest: Digest;
  period: Period;
}

export abstract class DigestStore {
  /** Null when the organization already has MAX_DIGESTS_PER_ORGANIZATION. */
  abstract create(organizationId: number, digest: NewDigest): Promise<Digest | null>;
  abstract list(organizationId: number): Promise<Digest[]>;
  abstract find(organizationId: number, id: number): Promise<Digest | null>;
  abstract delete(organizationId: number, id: number): Promise<boolean>;
  /** Every digest of every organization, for the scheduler. */
  abstract all(): Promise<Digest[]>;
  /** Claims the scheduled sends of these periods that no worker claimed yet; answers the periods this call claimed. */
  abstract claimPeriods(digestId: number, periods: readonly Period[]): Promise<number[]>;
  /**
   * A manual send, claimed by no one yet: the next pass of any worker takes it. None is added
   * while one of the digest's is waiting, so calls in a loop cannot queue mail without bound.
   */
  abstract addManualSend(digestId: number, period: Period): Promise<void>;
  /** Claims the sends not sent whose claim is older than `leaseMs` (a worker died or the relay failed) or that no one claimed (manual ones). */
  abstract claimUnsent(leaseMs: number, limit: number): Promise<ClaimedSend[]>;
  /** The claimed sends by id, with their digest. */
  abstract sends(ids: readonly number[]): Promise<ClaimedSend[]>;
  abstract markSent(sendId: number): Promise<void>;
}

export interface OutgoingDigest {
  to: string[];
  subject: string;
  text: string;
  html: string;
  chartPng: Buffer;
  chartCid: string;
}

/** Sends digests through SMTP_RELAY_URL. */
export abstract class DigestMailer {
  abstract readonly configured: boolean;
  abstract send(message: OutgoingDigest): Promise<void>;
}

/** Rasterizes the chart's SVG to PNG, on the server. */
export abstract class ChartRenderer {
  abstract png(svg: string): Buffer;
}
