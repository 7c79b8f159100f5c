/**
 * The search indexer against a document Postgres refuses (docs/search.md, The documents and how
 * they stay fresh): one stranger's case must not hold back the search of every later case of
 * every organization. Against the real service and its worker role's indexer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createdCaseId, givenCasesWorkflow, patchCase } from '../support/cases-api.js';
import { adminSearchIds, searchable, unique } from '../support/search-api.js';
import { closeDb, startTestApp, type TestApp } from '../support/test-app.js';

describe('search indexer: a document Postgres refuses', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp({ captureLogs: true, env: { RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0', LIST_READ_DATABASE_MS_PER_SECOND: '100000' } }); });
  after(async () => { await t.close(); await closeDb(); });

  it('is indexed by its subject alone, logged and counted, and every case after it, of any organization, is indexed whole', async () => {
    const stranger = await givenCasesWorkflow(t);
    const other = await givenCasesWorkflow(t);
    const [word, inRefused, inMine, inTheirs] = [unique(), unique('hidden'), unique('mine'), unique('theirs')];
    // 231 characters, within the bound on an identifier's length, but lowercased and decomposed
    // (NFD: each syllable three jamo) a lexeme of 2,071 bytes, past Postgres' 2,047 (SQLSTATE 54000).
    const tooLongLexeme = `${'각'.repeat(230)}1`;
    const refused = await createdCaseId(stranger, { subject: `Refused ${word}`, attributes: { note: `${tooLongLexeme} ${inRefused}` } });
    const mine = await createdCaseId(other, { subject: `After it ${word}`, attributes: { note: inMine } });
    const theirs = await createdCaseId(stranger, { subject: `Also after ${word}`, attributes: { note: inTheirs } });

    await searchable(t, other, inMine, mine);
    await searchable(t, stranger, inTheirs, theirs);
    assert.deepEqual((await adminSearchIds(t, stranger, word)).sort((a, b) => a - b), [refused, theirs], 'the refused case is found by its subject');
    assert.deepEqual(await adminSearchIds(t, stranger, inRefused), [], 'its document holds its subject only');

    const lines = t.logs.filter((line) => line.includes('document refused'));
    assert.equal(lines.length, 1, lines.join(''));
    const logged = JSON.parse(lines[0]!) as Record<string, unknown>;
    assert.deepEqual([logged.caseId, logged.organizationId, logged.sqlstate], [refused, stranger.org.id, '54000']);
    assert.ok(!lines[0]!.includes(inRefused) && !lines[0]!.includes('각'), 'the text is never logged');
    const metrics = await t.request('GET', '/metrics');
    assert.match(metrics.text, /^search_documents_refused_total 1$/m);

    // A change that leaves its texts as they were (its status) does not try them again: the
    // reduced document was stored with the digest of the whole texts.
    assert.equal((await patchCase(stranger, refused, { status: 'Triage' })).status, 200);
    const later = unique('later');
    const laterCase = await createdCaseId(stranger, { subject: `Later ${later}` });
    await searchable(t, stranger, later, laterCase);
    assert.equal(t.logs.filter((line) => line.includes('document refused')).length, 1, 'refused once');
    assert.match((await t.request('GET', '/metrics')).text, /^search_documents_refused_total 1$/m);
    assert.match((await t.request('GET', '/metrics')).text, /^search_documents_unchanged_total [1-9]\d*$/m);
  });
});
