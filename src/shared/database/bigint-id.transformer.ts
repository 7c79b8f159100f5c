import type { ValueTransformer } from 'typeorm';

/** Ids are Postgres bigints; the API shows them as JSON integers (safe up to 2^53). */
export const bigintId: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
