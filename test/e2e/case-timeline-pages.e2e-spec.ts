import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertErrorBody, createdCaseId, givenCasesWorkflow, patchCase, wholeTimeline } from '../support/cases-api.js';
import { closeDb, startTestApp, type TestApp } from '../support/test-app.js';

describe('admin timeline: paged with a cursor', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); await closeDb(); });

  it('pages of `limit` events, oldest first, linked by next_cursor (null on the last): together the whole timeline, once each', async () => {
    const f = await givenCasesWorkflow(t);
    const caseId = await createdCaseId(f);
    for (const status of ['Triage', 'Waiting on customer', 'Triage', 'Closed', 'Open']) assert.equal((await patchCase(f, caseId, { status })).status, 200);
    const whole = await wholeTimeline(t, f.org.adminToken, caseId);
    assert.equal(whole.length, 6, JSON.stringify(whole));
    const pages: number[][] = [];
    let cursor: string | null = null;
    do {
      const res = await t.request('GET', `/api/admin/v1/cases/${caseId}/timeline?limit=4${cursor ? `&cursor=${cursor}` : ''}`, { token: f.org.adminToken });
      assert.equal(res.status, 200, res.text);
      pages.push(res.body.events.map((e: { id: number }) => e.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    assert.deepEqual(pages.map((p) => p.length), [4, 2]);
    assert.deepEqual(pages.flat(), whole.map((e) => e.id));
    assert.equal((await patchCase(f, caseId, { status: 'Triage' })).status, 200);
    assert.equal((await wholeTimeline(t, f.org.adminToken, caseId)).length, 7, 'an event added later comes on the last page');
  });

  it('100 events a page unless asked; 422 for a limit outside 1-200, a cursor this service did not make, or another parameter', async () => {
    const f = await givenCasesWorkflow(t);
    const caseId = await createdCaseId(f);
    for (let i = 0; i < 101; i++) assert.equal((await patchCase(f, caseId, { status: i % 2 ? 'Open' : 'Triage' })).status, 200);
    const first = await t.request('GET', `/api/admin/v1/cases/${caseId}/timeline`, { token: f.org.adminToken });
    assert.equal(first.body.events.length, 100);
    assert.equal(typeof first.body.next_cursor, 'string');
    for (const query of ['limit=0', 'limit=201', 'limit=x', 'cursor=abc', `cursor=${Buffer.from('t.01').toString('base64url')}`, 'after=1']) {
      const res = await t.request('GET', `/api/admin/v1/cases/${caseId}/timeline?${query}`, { token: f.org.adminToken });
      assert.equal(res.status, 422, `${query}: ${res.text}`);
      assertErrorBody(res);
    }
    const missing = await t.request('GET', `/api/admin/v1/cases/${caseId + 1_000_000}/timeline?limit=5`, { token: f.org.adminToken });
    assert.equal(missing.status, 404, missing.text);
  });
});
