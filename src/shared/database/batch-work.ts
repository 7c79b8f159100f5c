import { isRefusedForAnEarlierFailure } from './database-errors.js';

/** Some of a batch's work failed, each with its reason, before the transaction's COMMIT was sent. */
export class BatchWorkFailed<E> extends Error {
  constructor(readonly failures: ReadonlyMap<E, unknown>) {
    super('work in a batch failed');
  }
}

/**
 * Runs every entry's work inside one transaction and waits for all of it, even when one failed.
 * Answers the values in the entries' order, or throws BatchWorkFailed with the entries at
 * fault: work whose statement was refused only because another's had failed is not.
 */
export async function runTogether<E, T>(batch: readonly E[], work: (entry: E) => Promise<T>): Promise<T[]> {
  const settled = await Promise.allSettled(batch.map(work));
  const rejected = new Map<E, unknown>();
  settled.forEach((outcome, i) => {
    if (outcome.status === 'rejected') rejected.set(batch[i]!, outcome.reason);
  });
  if (rejected.size === 0) return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
  const failures = new Map([...rejected].filter(([, reason]) => !isRefusedForAnEarlierFailure(reason)));
  throw new BatchWorkFailed(failures.size > 0 ? failures : rejected);
}
