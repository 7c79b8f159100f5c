import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CasesFixture } from './cases-api.js';
import type { TestApp } from './test-app.js';

/** A word no other case of the run holds, so a test's searches find its own cases only. */
export const unique = (prefix = 'tok') => `${prefix}${randomBytes(5).toString('hex').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!)}`;

/** The ids the admin case list finds for `q`, in its order. */
export async function adminSearchIds(t: TestApp, f: CasesFixture, q: string, more: Record<string, string> = {}): Promise<number[]> {
  const res = await t.request('GET', `/api/admin/v1/cases?${new URLSearchParams({ q, ...more })}`, { token: f.org.adminToken });
  assert.equal(res.status, 200, `admin q=${q}: ${res.text}`);
  return res.body.cases.map((c: { id: number }) => c.id);
}

/** Waits until the admin search for `q` finds `caseId` (the indexer's pass), failing after `withinMs`; how long it took. */
export async function searchable(t: TestApp, f: CasesFixture, q: string, caseId: number, withinMs = 5_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    if ((await adminSearchIds(t, f, q)).includes(caseId)) return Date.now() - started;
    assert.ok(Date.now() - started < withinMs, `case ${caseId} found by q=${q} within ${withinMs} ms`);
    await sleep(25);
  }
}
