import { api, query, type Case, type CasePage } from './api.ts';

/**
 * The admin API has no "get one case" endpoint, so the case page finds its case in the
 * list: first among the cases the list pages already showed, else by asking the list for
 * the first case at or below that id (the cursor is the id the next page starts below),
 * and checking the answer is that very case.
 */
const seen = new Map<number, Case>();

export function rememberCases(cases: Case[]): void {
  for (const c of cases) seen.set(c.id, c);
}

export async function findCase(id: number): Promise<Case | null> {
  const known = seen.get(id);
  if (known) return known;
  const page = await api.get<CasePage>(`/cases${query({ cursor: id + 1, limit: 1 })}`);
  rememberCases(page.cases);
  return page.cases.find((c) => c.id === id) ?? null;
}


/** Drops a remembered case so the next lookup asks the service again (after a refresh). */
export function forgetCase(id: number): void {
  seen.delete(id);
}
