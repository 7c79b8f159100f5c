/**
 * Postgres as the oracle of the number rule (issue 9): how many characters it writes a jsonb
 * number as, asked of Postgres itself rather than worked out like the service does.
 */
import { numberLiterals } from './json-text-oracle.js';
import { db } from './test-app.js';

/** The rule's limit: a number written out longer than this and than its own text is refused. */
export const MAX_WRITTEN_CHARS = 40;
export const NUMBER_TOO_LARGE = 'number is too large to store exactly: at most 40 characters written out without an exponent';

const written = new Map<string, number>();

/** How many characters Postgres writes this JSON number as; Infinity when numeric cannot hold it. */
export async function writtenByPostgres(literal: string): Promise<number> {
  if (!written.has(literal)) {
    try {
      const { rows } = await db().query<{ n: number }>('SELECT length($1::numeric::text) AS n', [literal]);
      written.set(literal, rows[0]!.n);
    } catch {
      written.set(literal, Infinity);
    }
  }
  return written.get(literal)!;
}

/** True when some number in the JSON text would be stored longer than the rule allows. */
export async function holdsOverlongNumber(text: string): Promise<boolean> {
  for (const literal of numberLiterals(text)) {
    if ((await writtenByPostgres(literal)) > Math.max(MAX_WRITTEN_CHARS, literal.length)) return true;
  }
  return false;
}
