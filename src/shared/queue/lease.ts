/**
 * How a worker keeps work it holds (a run mid-request, a delivery being sent): the lease runs
 * for `leaseMs` and is renewed every third of that, so a holder that lives keeps it even when
 * one renewal is late or lost, and the work of a holder that died is free `leaseMs` after its
 * last renewal at the latest. Returns the function that stops renewing.
 */
export function keepLease(renew: () => Promise<void>, leaseMs: number): () => void {
  // A failed renewal is tried again at the next tick; the lease only lapses after two misses in a row.
  const timer = setInterval(() => void renew().catch(() => undefined), leaseMs / 3);
  return () => clearInterval(timer);
}
