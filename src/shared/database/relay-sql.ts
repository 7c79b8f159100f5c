/**
 * The three looks of a relay (shared/queue/relay.ts) at an outbox-like table with `enqueued_at`
 * and `locked_until`, as conditions on its row aliased `alias`, each made into a statement by
 * `take`: rows never handed to the queue; rows whose worker's lease ran out (it died mid-job) and
 * that were not handed over since; rows handed over more than a grace ago that no worker holds
 * (their job was lost, or it waits out a backoff and Bull ignored the add). `grace` is the SQL
 * parameter holding that grace in milliseconds.
 */
export function relayTakes<T>(alias: string, grace: string, take: (condition: string) => T): { new: T; expired: T; stale: T } {
  return {
    new: take(`${alias}.enqueued_at IS NULL`),
    expired: take(`${alias}.locked_until < now() AND ${alias}.enqueued_at < ${alias}.locked_until`),
    stale: take(`${alias}.enqueued_at < now() - ${grace} * interval '1 millisecond' AND (${alias}.locked_until IS NULL OR ${alias}.locked_until < now())`),
  };
}
