/**
 * Full-text search over cases (search.md, docs/search.md) through both case lists, against the
 * real service: its worker role's indexer follows the change feed, so every case here becomes
 * searchable the way production's do, and the freshness test times it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { CaseEmailsService } from '../../src/modules/cases/application/case-emails.service.js';
import { MAX_VALUE_CHARS } from '../../src/modules/search/domain/search-document.js';
import { anotherWorkflow, createdCaseId, type CasesFixture, givenCasesWorkflow, patchCase, statusDefinition } from '../support/cases-api.js';
import { adminSearchIds, searchable as searchableIn, unique } from '../support/search-api.js';
import { closeDb, db, type InjectResult, startTestApp, type TestApp } from '../support/test-app.js';

type Case = Record<string, any>;

describe('full-text search over cases', () => {
  let t: TestApp;
  // The budget is tested below, on an app of its own: here it would refuse the polls that wait for the indexer.
  before(async () => { t = await startTestApp({ env: { RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0', LIST_READ_DATABASE_MS_PER_SECOND: '100000' } }); });
  after(async () => { await t.close(); await closeDb(); });

  const adminList = (f: CasesFixture, query: Record<string, string>) => t.request('GET', `/api/admin/v1/cases?${new URLSearchParams(query)}`, { token: f.org.adminToken });
  const apiList = (f: CasesFixture, query: Record<string, string>) => t.request('GET', `${f.casesPath}?${new URLSearchParams(query)}`, { token: f.apiToken });

  function cases(res: InjectResult, what: string): Case[] {
    assert.equal(res.status, 200, `${what}: ${res.text}`);
    return res.body.cases;
  }
  const adminIds = (f: CasesFixture, q: string, more: Record<string, string> = {}) => adminSearchIds(t, f, q, more);
  const apiIds = async (f: CasesFixture, q: string, more: Record<string, string> = {}) => cases(await apiList(f, { q, ...more }), `api q=${q}`).map((c) => c.id);
  const searchable = (f: CasesFixture, q: string, caseId: number, withinMs?: number) => searchableIn(t, f, q, caseId, withinMs);

  /** Creates the cases, then waits until the last is indexed (the indexer writes in feed order, so every earlier one is too). */
  async function givenCases(f: CasesFixture, bodies: { subject: string; attributes?: Record<string, unknown> }[]): Promise<number[]> {
    const marker = unique('marker');
    const ids: number[] = [];
    for (const [i, body] of bodies.entries()) {
      const last = i === bodies.length - 1;
      ids.push(await createdCaseId(f, last ? { ...body, attributes: { ...body.attributes, search_marker: marker } } : body));
    }
    await searchable(f, marker, ids.at(-1)!);
    return ids;
  }

  it('words match their common forms: invoices finds invoice, refunded finds refunds', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    const [invoice, refunds, other] = await givenCases(f, [
      { subject: `Invoice question ${word}` },
      { subject: `Customer ${word} wants refunds` },
      { subject: `Unrelated ${word}` },
    ]);
    assert.deepEqual((await adminIds(f, `invoices ${word}`)).sort(), [invoice]);
    assert.deepEqual(await adminIds(f, `refunded ${word}`), [refunds]);
    assert.deepEqual((await adminIds(f, word)).sort((a, b) => a - b), [invoice, refunds, other]);
  });

  it('case and accents do not matter: Müller finds muller, MULLER finds Müller', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    const [accented, plain] = await givenCases(f, [{ subject: `Frau Müller ${word}` }, { subject: `mr muller ${word}` }]);
    assert.deepEqual((await adminIds(f, `Müller ${word}`)).sort((a, b) => a - b), [accented, plain]);
    assert.deepEqual((await adminIds(f, `MULLER ${word}`)).sort((a, b) => a - b), [accented, plain]);
    assert.deepEqual((await apiIds(f, `muller ${word}`)).sort((a, b) => a - b), [accented, plain]);
  });

  it('a prefix matches words that start with it, and needs 2 letters before its *', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    const [invoice, inventory, refund] = await givenCases(f, [{ subject: `Invoices ${word}` }, { subject: `Inventory count ${word}` }, { subject: `Refund ${word}` }]);
    assert.deepEqual((await adminIds(f, `inv* ${word}`)).sort((a, b) => a - b), [invoice, inventory]);
    assert.deepEqual(await adminIds(f, `invoi* ${word}`), [invoice]);
    assert.deepEqual(await adminIds(f, `${word.slice(0, 6)}* refund`), [refund]);
    const short = await adminList(f, { q: `i* ${word}` });
    assert.equal(short.status, 422, short.text);
    assert.deepEqual(short.body.validation_errors.map((e: { path: string }) => e.path), ['/q']);
  });

  it('a quoted phrase matches its words in that order only', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    const [inOrder] = await givenCases(f, [{ subject: `late payment reminder ${word}` }, { subject: `payment was late ${word}` }]);
    assert.deepEqual(await adminIds(f, `"late payment" ${word}`), [inOrder]);
    assert.equal((await adminIds(f, `late payment ${word}`)).length, 2, 'without quotes, order does not matter');
  });

  it('-word leaves out the cases that hold it', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    const [kept] = await givenCases(f, [{ subject: `Broken printer ${word}` }, { subject: `Broken printer, refund wanted ${word}`, attributes: {} }]);
    assert.deepEqual(await adminIds(f, `printer -refund ${word}`), [kept]);
    assert.deepEqual(await apiIds(f, `printer -refunds ${word}`), [kept], 'an excluded word matches its forms too');
  });

  it('a word in most documents is left out of the index read, and the whole query still decides what is found', async () => {
    const f = await givenCasesWorkflow(t);
    const common = unique('common');
    const [rare, excluded] = [unique('rare'), unique('spam')];
    // Enough documents hold `common` that the column statistics count it in over 5 % of them.
    const { rows: [documents] } = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM case_search_documents');
    const fillers = Math.ceil(documents!.n * 0.1) + 20;
    const [wanted, withoutCommon, withExcluded] = await givenCases(f, [
      { subject: `Parcel ${common} ${rare}` },
      { subject: `Parcel ${rare}` },
      { subject: `Parcel ${common} ${rare} ${excluded}` },
      ...Array.from({ length: fillers }, (_, i) => ({ subject: `Filler ${i} ${common}` })),
    ]);
    await db().query('ANALYZE case_search_documents');
    const { rows: [stats] } = await db().query<{ share: number | null }>(
      `SELECT u.share FROM pg_stats s CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS u(lexeme, share)
       WHERE s.tablename = 'case_search_documents' AND s.attname = 'all_text' AND u.lexeme = (tsvector_to_array(to_tsvector('cis_search', $1)))[1]`,
      [common],
    );
    assert.ok((stats?.share ?? 0) >= 0.05, `the statistics count ${common} as common (${JSON.stringify(stats)})`);
    assert.deepEqual(await adminIds(f, `${common} ${rare} -${excluded}`), [wanted]);
    assert.deepEqual(await apiIds(f, `${rare} ${common} -${excluded}`), [wanted]);
    assert.deepEqual(await adminIds(f, `${rare} -${common}`), [withoutCommon]);
    assert.deepEqual(await adminIds(f, `${common} ${excluded}`), [withExcluded]);
  });

  it('numbers and identifiers match whole, at any depth of the attributes', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    const [order, asset, quantity, other] = await givenCases(f, [
      { subject: `Order ${word}`, attributes: { customer: { orders: [{ id: 'ORD-99812', lines: [{ sku: 'x' }] }] } } },
      { subject: `Asset ${word}`, attributes: { items: [[{ tag: 'asset A-1043 returned' }]] } },
      { subject: `Quantity ${word}`, attributes: { details: { quantity: 42 } } },
      { subject: `Other ${word}`, attributes: { details: { quantity: 420, tag: 'A-10431', order: 'ORD-998123' } } },
    ]);
    assert.deepEqual(await adminIds(f, 'ORD-99812'), [order]);
    assert.deepEqual(await apiIds(f, 'ord-99812'), [order]);
    assert.deepEqual(await adminIds(f, 'A-1043'), [asset]);
    assert.deepEqual(await adminIds(f, `42 ${word}`), [quantity], '42 is not 420');
    const raw = await t.request('POST', f.casesPath, { token: f.apiToken, rawBody: `{"subject":"Big number","attributes":{"n":{"big":12345678901234567891}}}` });
    assert.equal(raw.status, 201, raw.text);
    await searchable(f, '12345678901234567891', raw.body.case.id);
    assert.deepEqual(await adminIds(f, `ORD-998* ${word}`), [other, order], 'an identifier prefix, newest first');
    const found = await adminList(f, { q: 'ORD-99812' });
    assert.deepEqual(found.body.cases[0].match, { field: 'attributes', pointer: '/customer/orders/0/id', snippet: '[[ORD-99812]]' });
  });

  it('attributes declared searchable: false are never searched', async () => {
    const f = await givenCasesWorkflow(t, statusDefinition({ attributes: { secret_note: { type: 'string', searchable: false }, note: { type: 'object' } } }));
    const hidden = unique('hidden');
    const shown = unique('shown');
    const [id] = await givenCases(f, [{ subject: 'Declared attributes', attributes: { secret_note: hidden, note: { inner: shown } } }]);
    assert.deepEqual(await adminIds(f, shown), [id]);
    assert.deepEqual(await adminIds(f, hidden), []);
    assert.deepEqual(await apiIds(f, hidden), []);
    const bad = await t.request('POST', '/api/admin/v1/workflows', { token: f.org.adminToken, body: statusDefinition({ attributes: { a: { type: 'string', searchable: 'no' } } }) });
    assert.equal(bad.status, 422, bad.text);
    assert.deepEqual(bad.body.validation_errors.map((e: { path: string }) => e.path), ['/attributes/a/searchable']);
  });

  it('on a workflow with sensitive data only attributes declared searchable: true are searched', async () => {
    const f = await givenCasesWorkflow(t, statusDefinition({
      sensitive_data: true,
      attributes: {
        ticket: { type: 'string', searchable: true }, diagnosis: { type: 'string' }, ssn: { type: 'string', searchable: false }, search_marker: { type: 'string', searchable: true },
      },
    }));
    const [ticket, diagnosis, ssn] = [unique('ticket'), unique('diag'), unique('ssn')];
    const [id] = await givenCases(f, [{ subject: 'Patient case', attributes: { ticket, diagnosis, ssn } }]);
    assert.deepEqual(await adminIds(f, ticket), [id]);
    assert.deepEqual(await adminIds(f, diagnosis), [], 'not declared searchable');
    assert.deepEqual(await adminIds(f, ssn), []);
    assert.deepEqual(await apiIds(f, diagnosis), []);
  });

  it('email messages are searched by the admin list, never by the cases API', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    const id = await createdCaseId(f, { subject: `Question ${word}` });
    const replied = unique('reply');
    await t.app.get(CaseEmailsService).addReply(f.org.id, f.workflowId, id, { subject: `Re: question ${word}`, text: `The parcel ${replied} arrived damaged.`, from: null }, { attachments: [], messageId: null }, false);
    await searchable(f, replied, id);
    const found = await adminList(f, { q: replied });
    assert.equal(found.body.cases[0].match.field, 'email');
    assert.match(found.body.cases[0].match.pointer, /^\/replies\/[0-9]+\/text$/);
    assert.equal(found.body.cases[0].match.snippet, `The parcel [[${replied}]] arrived damaged`);
    assert.deepEqual(await apiIds(f, replied), [], 'the cases API searches subject and attributes only');
    assert.deepEqual(await apiIds(f, word), [id]);
    assert.equal((await apiList(f, { q: word })).body.cases[0].match, undefined, 'the cases API gives no match');
  });

  it('comments are searched by the admin list within 2 s of their 201, never by the cases API', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    const id = await createdCaseId(f, { subject: `Question ${word}` });
    await searchable(f, word, id);
    const noted = unique('note');
    const res = await t.request('POST', `/api/admin/v1/cases/${id}/comments`, { token: f.org.adminToken, body: { body: `Checked the warehouse: ${noted} is missing.`, visibility: 'internal' } });
    assert.equal(res.status, 201, res.text);
    await searchable(f, noted, id, 2_000);
    const found = await adminList(f, { q: noted });
    assert.deepEqual([found.body.cases[0].match.field, found.body.cases[0].match.pointer], ['comment', `/comments/${res.body.comment.id}`]);
    assert.match(found.body.cases[0].match.snippet, new RegExp(`\\[\\[${noted}\\]\\]`));
    assert.deepEqual(await apiIds(f, noted), [], 'the cases API never searches comments');
  });

  it("another organization's cases are never found", async () => {
    const mine = await givenCasesWorkflow(t);
    const theirs = await givenCasesWorkflow(t);
    const word = unique();
    const [their] = await givenCases(theirs, [{ subject: `Shared word ${word}` }]);
    const [own] = await givenCases(mine, [{ subject: `Shared word ${word}` }]);
    assert.deepEqual(await adminIds(mine, word), [own]);
    assert.deepEqual(await adminIds(theirs, word), [their]);
    assert.deepEqual(await apiIds(mine, word), [own]);
    const otherWorkflow = await t.request('GET', `${theirs.casesPath}?q=${word}`, { token: mine.apiToken });
    assert.equal(otherWorkflow.status, 404, otherWorkflow.text);
  });

  it('orders by relevance (subject, attributes, messages), then newest first, with each match and snippet', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    const [inAttributesOld, inSubjectOld, inAttributesNew, inSubjectNew] = await givenCases(f, [
      { subject: 'First', attributes: { note: `the ${word} is here` } },
      { subject: `Subject says ${word}`, attributes: {} },
      { subject: 'Third', attributes: { deep: { list: ['x', `item ${word}`] } } },
      { subject: `${word} again`, attributes: {} },
    ]);
    const inEmail = await createdCaseId(f, { subject: 'Fifth' });
    await t.app.get(CaseEmailsService).addReply(f.org.id, f.workflowId, inEmail, { subject: `About ${word}`, text: 'see subject', from: null }, { attachments: [], messageId: null }, false);
    await searchable(f, `${word} -fifthsentinel`, inEmail);
    const found = cases(await adminList(f, { q: word }), 'relevance');
    assert.deepEqual(found.map((c) => c.id), [inSubjectNew, inSubjectOld, inAttributesNew, inAttributesOld, inEmail]);
    assert.deepEqual(found.slice(0, 4).map((c) => c.match), [
      { field: 'subject', pointer: '', snippet: `[[${word}]] again` },
      { field: 'subject', pointer: '', snippet: `Subject says [[${word}]]` },
      { field: 'attributes', pointer: '/deep/list/1', snippet: `item [[${word}]]` },
      { field: 'attributes', pointer: '/note', snippet: `the [[${word}]] is here` },
    ]);
    const { field, pointer, snippet } = found[4]!.match;
    assert.deepEqual([field, snippet], ['email', `About [[${word}]]`]);
    assert.match(pointer, /^\/replies\/[0-9]+\/subject$/);
    assert.deepEqual(await apiIds(f, word), [inSubjectNew, inSubjectOld, inAttributesNew, inAttributesOld]);
  });

  it('pages of a search never repeat or skip a case, whatever the page size', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    const bodies = Array.from({ length: 13 }, (_, i) => (i % 3 === 0 ? { subject: `${word} ${i}` } : { subject: `Case ${i}`, attributes: { n: `${word} ${i}` } }));
    await givenCases(f, bodies);
    const whole = await adminIds(f, word, { limit: '100' });
    assert.equal(whole.length, 13);
    for (const limit of ['1', '2', '5']) {
      for (const list of [adminList, apiList]) {
        const seen: number[] = [];
        let cursor: string | null = null;
        do {
          const res: InjectResult = await list(f, { q: word, limit, ...(cursor ? { cursor } : {}) });
          seen.push(...cases(res, `page of ${limit}`).map((c) => c.id));
          cursor = res.body.next_cursor;
        } while (cursor);
        assert.deepEqual(seen, whole, `pages of ${limit}`);
      }
    }
    const listCursor = (await adminList(f, { limit: '1' })).body.next_cursor;
    const mixed = await adminList(f, { q: word, cursor: listCursor });
    assert.equal(mixed.status, 422, 'a plain list cursor does not continue a search');
  });

  it('q combines with the other filters', async () => {
    const f = await givenCasesWorkflow(t);
    const other = await anotherWorkflow(f);
    const word = unique();
    const [gold, silver] = await givenCases(f, [{ subject: `Tiered ${word}`, attributes: { tier: 'gold' } }, { subject: `Tiered ${word}`, attributes: { tier: 'silver' } }]);
    const [elsewhere] = await givenCases(other, [{ subject: `Tiered ${word}` }]);
    assert.equal((await patchCase(f, silver, { status: 'Triage' })).status, 200);
    assert.deepEqual(await apiIds(f, word, { attributes: '{"tier":"gold"}' }), [gold]);
    assert.deepEqual(await apiIds(f, word, { status: 'Triage' }), [silver]);
    assert.deepEqual(await adminIds(f, word, { workflow_id: String(other.workflowId) }), [elsewhere]);
    assert.deepEqual(await adminIds(f, word, { status: 'Open', workflow_id: String(f.workflowId) }), [gold]);
  });

  it('is searchable within 2 s of its 201, of an attribute change and of a reply', async () => {
    const f = await givenCasesWorkflow(t, statusDefinition({ automations: { Triage: [{ set_attributes: { resolution: 'refund {{ case.id }} processed' } }] } }));
    const word = unique();
    const started = Date.now();
    const id = await createdCaseId(f, { subject: `Fresh ${word}` });
    const createdIn = await searchable(f, word, id, 2_000);
    assert.ok(Date.now() - started < 2_000 + 500, 'found soon after the 201');

    assert.equal((await patchCase(f, id, { status: 'Triage' })).status, 200);
    for (let i = 0; ; i++) {
      const res = await t.request('GET', `${f.casesPath}/${id}`, { token: f.apiToken });
      if (res.body.case.attributes.resolution) break;
      assert.ok(i < 200, 'the automation set the attribute');
      await sleep(10);
    }
    const changedIn = await searchable(f, `refund ${word}`, id, 2_000);

    const replied = unique('reply');
    await t.app.get(CaseEmailsService).addReply(f.org.id, f.workflowId, id, { subject: 'Re', text: `answer ${replied}`, from: null }, { attachments: [], messageId: null }, false);
    const repliedIn = await searchable(f, replied, id, 2_000);
    assert.ok(Math.max(createdIn, changedIn, repliedIn) < 2_000, `created ${createdIn} ms, changed ${changedIn} ms, replied ${repliedIn} ms`);
  });

  it('q is bounded: 256 characters, 16 terms, one term that must match; an empty q is no filter', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    await givenCases(f, [{ subject: `Bounded ${word}` }]);
    for (const [q, why] of [
      ['a'.repeat(257), 'too long'],
      [Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '), 'too many terms'],
      ['-spam -ham', 'exclusions only'],
      ['x*', 'prefix too short'],
    ] as const) {
      for (const list of [adminList, apiList]) {
        const res = await list(f, { q });
        assert.equal(res.status, 422, `${why}: ${res.text}`);
        assert.equal(typeof res.body.error, 'string');
        assert.deepEqual(res.body.validation_errors.map((e: { path: string }) => e.path), ['/q'], why);
      }
    }
    assert.equal((await apiList(f, { q: Array.from({ length: 16 }, (_, i) => `w${i}`).join(' ') })).status, 200, '16 terms are fine');
    assert.equal((await apiList(f, { q: `${word} ${'b'.repeat(256 - word.length - 1)}` })).status, 200, '256 characters are fine');
    const all = cases(await apiList(f, {}), 'no q');
    assert.deepEqual(cases(await apiList(f, { q: '' }), 'empty q'), all);
    assert.deepEqual(cases(await apiList(f, { q: '   ' }), 'blank q'), all);
    assert.deepEqual(await apiIds(f, 'the and of'), [], 'stop words alone match nothing');
  });

  it("q's characters are only ever data, never SQL or tsquery syntax", async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    const [id] = await givenCases(f, [{ subject: `Robert'); DROP TABLE cases;-- ${word} a:* & b | !c <-> (d)` }]);
    for (const q of [`${word} ');DROP TABLE cases;--`, `${word} a:*`, `${word} & | ! <-> ( ) :* \\ '' "`, `${word}:A`, `${word} 'x':*`, `!${word}`, `${word} <2>`]) {
      const res = await adminList(f, { q });
      assert.ok(res.status === 200 || res.status === 422, `${q}: ${res.status} ${res.text}`);
    }
    assert.deepEqual(await adminIds(f, `${word} ');DROP TABLE cases;--`), [id]);
    assert.deepEqual(await adminIds(f, `${word} (d)`), [id], 'parentheses are punctuation, not grouping');
    assert.equal((await adminList(f, { q: `${word} a:*` })).status, 422, 'a:* is a prefix of one letter, not a tsquery prefix');
    assert.deepEqual(await adminIds(f, `robert ${word} -"drop table"`), [], 'the phrase excluded is words');
  });

  it('indexes a case whose texts are cut inside an emoji or hold an identifier longer than any q, and the cases after it', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    // The value's bound falls between the two halves of 😀; a 3,000-digit token is past Postgres' lexeme size.
    const cutInsideEmoji = `${'a '.repeat((MAX_VALUE_CHARS - 2) / 2)}b😀 after the bound`;
    assert.equal(cutInsideEmoji.charCodeAt(MAX_VALUE_CHARS - 1), 0xd83d);
    const [odd, next] = await givenCases(f, [
      { subject: `Odd texts ${word}`, attributes: { long: cutInsideEmoji, digits: '9'.repeat(3_000) } },
      { subject: `Plain ${word}` },
    ]);
    assert.deepEqual((await adminIds(f, word)).sort((a, b) => a - b), [odd, next]);
  });

  it('generated q: the lists answer 200 or 422, never anything else', async () => {
    const f = await givenCasesWorkflow(t);
    const word = unique();
    await givenCases(f, [{ subject: `Fuzz ${word} A-1043 Müller`, attributes: { note: 'ORD-99812 "quoted" -minus star*' } }]);
    const pieces = fc.oneof(
      fc.constantFrom('"', '-', '*', ':', '&', '|', '!', '<->', '(', ')', "'", '\\', '%', '_', ';', '--', '/*', '\u0000', '\ud800', 'é', 'ß', 'İ', '٣', '　', ' ', '\t', 'A-1043', 'ORD-99*', word, 'the'),
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(pieces, { maxLength: 40 }).map((p) => p.join('')), fc.boolean(), async (q, admin) => {
        const res = await (admin ? adminList : apiList)(f, { q });
        assert.ok(res.status === 200 || res.status === 422, `q=${JSON.stringify(q)}: ${res.status} ${res.text}`);
        if (res.status === 422) assert.ok(Array.isArray(res.body.validation_errors), res.text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('full-text search: the list-read budget', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0', LIST_READ_DATABASE_MS_PER_SECOND: '1', LIST_READ_DATABASE_BURST_MS: '1', ROLE: 'api' } });
  });
  after(async () => { await t.close(); });

  it("a search is charged to the organization's list-read budget like any list read", async () => {
    const f = await givenCasesWorkflow(t);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await t.request('GET', `${f.casesPath}?q=anything`, { token: f.apiToken })).status);
    assert.equal(statuses[0], 200);
    assert.ok(statuses.includes(429), `a spent budget refuses searches: ${statuses.join(', ')}`);
    const res = await t.request('GET', `/api/admin/v1/cases?q=anything`, { token: f.org.adminToken });
    assert.equal(res.status, 429, 'the admin list shares the budget');
    assert.ok(Number(res.headers['retry-after']) >= 1);
  });
});
