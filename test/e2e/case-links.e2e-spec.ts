/**
 * Links between cases (casework.md, section 6): made, listed both ways and removed by the
 * organization's people, recorded on both timelines and in the audit log; one link per pair and
 * type, none to a case of another organization, and a bounded number per case.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_LINKS_PER_CASE } from '../../src/modules/case-links/domain/case-link.js';
import { eventually, isolatedRedisPrefix } from '../support/automation-helpers.js';
import { AUDIT } from '../support/audit-helpers.js';
import { type CasesFixture, createdCaseId, givenCasesWorkflow, anotherWorkflow, timeline } from '../support/cases-api.js';
import { closeDb, db, type InjectResult, startTestApp, type TestApp } from '../support/test-app.js';

describe('case links', () => {
  let t: TestApp;
  let f: CasesFixture;

  before(async () => {
    t = await startTestApp({ env: { REDIS_PREFIX: isolatedRedisPrefix() } });
    f = await givenCasesWorkflow(t);
  });
  after(async () => {
    await t?.close();
    await closeDb();
  });

  const link = (caseId: number, body: unknown, token = f.org.adminToken): Promise<InjectResult> =>
    t.request('POST', `/api/admin/v1/cases/${caseId}/links`, { token, body });
  const links = async (caseId: number): Promise<any[]> => {
    const res = await t.request('GET', `/api/admin/v1/cases/${caseId}/links`, { token: f.org.adminToken });
    assert.equal(res.status, 200, res.text);
    return res.body.links;
  };
  const unlink = (caseId: number, linkId: number, token = f.org.adminToken) => t.request('DELETE', `/api/admin/v1/cases/${caseId}/links/${linkId}`, { token });
  const rows = async (type: string, caseId: number) => (await timeline(t, f.org, caseId)).filter((e) => e.type === type);
  const audited = (action: string, caseId: number) =>
    eventually(`${action} on case ${caseId}`, async () => {
      const res = await t.request('GET', `${AUDIT}?action=${action}&target=case:${caseId}`, { token: f.org.adminToken });
      assert.equal(res.status, 200, res.text);
      return res.body.entries.length ? res.body.entries : undefined;
    });

  it('links two cases (201): each lists the link as it sees it, both timelines get linked, audited as case.linked', async () => {
    const a = await createdCaseId(f, { subject: 'Outage' });
    const b = await createdCaseId(f, { subject: 'Checkout fails' });
    const res = await link(a, { case_id: b, type: 'blocks' });
    assert.equal(res.status, 201, res.text);
    const made = res.body.link;
    assert.deepEqual({ ...made, id: 0, created_at: '' }, { id: 0, type: 'blocks', direction: 'outward', case: { id: b, subject: 'Checkout fails', status: 'Open', outcome: null }, created_at: '' });
    assert.deepEqual(await links(a), [made]);
    assert.deepEqual(await links(b), [{ ...made, direction: 'inward', case: { id: a, subject: 'Outage', status: 'Open', outcome: null } }]);
    const [onA] = await rows('linked', a);
    const [onB] = await rows('linked', b);
    assert.deepEqual([onA.link_id, onA.case_id, onA.link_type, onA.direction, onA.by.type], [made.id, b, 'blocks', 'outward', 'admin_token']);
    assert.deepEqual([onB.link_id, onB.case_id, onB.link_type, onB.direction], [made.id, a, 'blocks', 'inward']);
    const [entry] = await audited('case.linked', a);
    assert.deepEqual(entry.summary, { link_id: made.id, case_id: b, type: 'blocks' });
  });

  it('the same link again answers 200 with it (a relates link either way); a duplicates or blocks link the other way round is 422', async () => {
    const a = await createdCaseId(f);
    const b = await createdCaseId(f);
    const relates = await link(a, { case_id: b, type: 'relates' });
    assert.equal(relates.status, 201, relates.text);
    for (const [from, to] of [[a, b], [b, a]] as const) {
      const again = await link(from, { case_id: to, type: 'relates' });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.link.id, relates.body.link.id);
    }
    const duplicates = await link(a, { case_id: b, type: 'duplicates' });
    assert.equal(duplicates.status, 201, 'another type is another link');
    assert.equal((await link(a, { case_id: b, type: 'duplicates' })).status, 200);
    const reversed = await link(b, { case_id: a, type: 'duplicates' });
    assert.equal(reversed.status, 422, reversed.text);
    assert.equal((await links(a)).length, 2);
    assert.equal((await rows('linked', a)).length, 2, 'a repeated link is not recorded again');
  });

  it('a case is not linked to itself, nor to a case of another organization (404), nor with an unknown type (422)', async () => {
    const a = await createdCaseId(f);
    const self = await link(a, { case_id: a, type: 'relates' });
    assert.equal(self.status, 422, self.text);
    assert.deepEqual(self.body.validation_errors.map((p: { path: string }) => p.path), ['/case_id']);
    const stranger = await givenCasesWorkflow(t);
    const theirs = await createdCaseId(stranger);
    assert.equal((await link(a, { case_id: theirs, type: 'relates' })).status, 404);
    assert.equal((await link(theirs, { case_id: a, type: 'relates' })).status, 404);
    const sameOrgOtherWorkflow = await createdCaseId(await anotherWorkflow(f));
    assert.equal((await link(a, { case_id: sameOrgOtherWorkflow, type: 'relates' })).status, 201, 'any workflow of the organization');
    for (const body of [{ case_id: sameOrgOtherWorkflow, type: 'causes' }, { case_id: 'x', type: 'relates' }, { type: 'relates' }, { case_id: sameOrgOtherWorkflow }]) {
      const res = await link(a, body);
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
    }
    assert.equal((await t.request('GET', `/api/admin/v1/cases/${theirs}/links`, { token: f.org.adminToken })).status, 404);
    assert.equal((await links(a)).length, 1);
  });

  it('removing a link (204) from either case: gone for both, unlinked on both timelines, audited; again, or through a case not in it, 404', async () => {
    const [a, b, c] = [await createdCaseId(f), await createdCaseId(f), await createdCaseId(f)];
    const made = (await link(a, { case_id: b, type: 'relates' })).body.link;
    assert.equal((await unlink(c, made.id)).status, 404, 'a link of other cases');
    const stranger = await givenCasesWorkflow(t);
    assert.equal((await unlink(a, made.id, stranger.org.adminToken)).status, 404, 'another organization');
    const removed = await unlink(b, made.id);
    assert.equal(removed.status, 204, removed.text);
    assert.deepEqual([await links(a), await links(b)], [[], []]);
    for (const [caseId, other] of [[a, b], [b, a]] as const) {
      const [row] = await rows('unlinked', caseId);
      assert.deepEqual([row?.link_id, row?.case_id], [made.id, other]);
    }
    const [entry] = await audited('case.unlinked', b);
    assert.deepEqual(entry.summary, { link_id: made.id, case_id: a, type: 'relates' });
    assert.equal((await unlink(b, made.id)).status, 404);
  });

  it('a case takes part in at most 500 links, whichever way they point (422 past them)', async () => {
    assert.equal(MAX_LINKS_PER_CASE, 500, 'as this test\'s name (quoted in docs/security.md) says');
    const [full, other, third] = [await createdCaseId(f), await createdCaseId(f), await createdCaseId(f)];
    // Links to cases that need not exist: the count is what is capped.
    await db().query(
      `INSERT INTO case_links (organization_id, case_id, other_case_id, type)
       SELECT $1, CASE WHEN i % 2 = 0 THEN $2 ELSE 1000000000 + i END, CASE WHEN i % 2 = 0 THEN 1000000000 + i ELSE $2 END, 'relates'
       FROM generate_series(1, $3::int) AS i`,
      [f.org.id, full, MAX_LINKS_PER_CASE - 1],
    );
    assert.equal((await link(full, { case_id: other, type: 'relates' })).status, 201, `the ${MAX_LINKS_PER_CASE}th`);
    const past = await link(third, { case_id: full, type: 'blocks' });
    assert.equal(past.status, 422, past.text);
    assert.match(past.body.error, new RegExp(`case ${full} has ${MAX_LINKS_PER_CASE} links`));
    assert.deepEqual(await links(third), []);
  });
});
