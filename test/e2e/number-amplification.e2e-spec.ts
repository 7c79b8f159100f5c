/**
 * Issue 9, bounded amplification: Postgres writes a jsonb number out in full, so a short
 * number text can become a huge stored value (`1e131071` is 131072 characters on every read).
 * The rule: a number is accepted when its plain decimal form is at most 40 characters or no
 * longer than its own text; otherwise 422 at its JSON Pointer, or a failed run for steps.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { assertParkedInError, createCase, EMAIL, givenAutomation, readCase, receiverFor } from '../support/automation-helpers.js';
import { hostileNumberText } from '../support/hostile-input.js';
import { rawMemberText } from '../support/json-text-oracle.js';
import { holdsOverlongNumber, NUMBER_TOO_LARGE as TOO_LARGE } from '../support/number-oracle.js';
import { createOrganization } from '../support/scenario.js';
import { closeDb, type InjectResult, startTestApp, type TestApp } from '../support/test-app.js';
import { countCases, createdCaseId, givenWebhook, postWebhook, type WebhookWorkflow } from '../support/webhook-helpers.js';

/** The reported attack: 300 copies of 1e131071, 2.7 KB, which Postgres writes out as 39 MB. */
const ATTACK = `{"a":[${Array(300).fill('1e131071').join(',')}]}`;
/** Accepted bodies read back at most this many times their length, plus OVERHEAD characters. */
const FACTOR = 10;
const OVERHEAD = 64;

/** A 422 whose validation errors are exactly these problems. */
function assertRefusedAt(res: InjectResult, error: string, problems: { path: string; error: string }[]): void {
  assert.equal(res.status, 422, res.text.slice(0, 500));
  assert.deepEqual(res.body, { error, validation_errors: problems });
}

describe('numbers cannot amplify what is stored', () => {
  let t: TestApp;
  let w: WebhookWorkflow;
  before(async () => {
    t = await startTestApp();
    w = await givenWebhook(t);
  });
  after(async () => { await t.close(); await closeDb(); });

  const viaWebhook = (body: string) => postWebhook(t, w.workflowId, w.token, body);
  const viaApi = (attributes: string) => t.request('POST', w.casesPath, { token: w.apiToken, rawBody: `{"subject":"s","attributes":${attributes}}` });
  const ways = [['webhook', viaWebhook], ['cases API', viaApi]] as const;

  /** The attributes text of a case as GET shows it. */
  async function storedAttributes(caseId: number): Promise<string> {
    const read = await t.request('GET', `${w.casesPath}/${caseId}`, { token: w.apiToken });
    assert.equal(read.status, 200, read.text);
    return rawMemberText(read.text, ['case', 'attributes']);
  }

  for (const [way, post] of ways) {
    it(`${way}: the 2.7 KB attack of 300 x 1e131071 is a 422 at its first number and stores nothing`, async () => {
      assert.ok(ATTACK.length < 2_800, `${ATTACK.length} bytes`);
      const before = await countCases(w.workflowId);
      assertRefusedAt(await post(ATTACK), 'attributes_validation_failed', [{ path: '/a/0', error: TOO_LARGE }]);
      assertRefusedAt(await post('{"order":{"lines":[1,{"n":2},1e131071]}}'), 'attributes_validation_failed', [{ path: '/order/lines/2', error: TOO_LARGE }]);
      assert.equal(await countCases(w.workflowId), before);
    });

    it(`${way}: refuses just over 40 characters written out, accepts 40 and long numbers sent in full`, async () => {
      for (const n of ['1e40', '1e41', '-1e39', '1e-39', '5e-324', '1.7976931348623157e308', '-0e-39', '1E+1000']) {
        assertRefusedAt(await post(`{"n":${n}}`), 'attributes_validation_failed', [{ path: '/n', error: TOO_LARGE }]);
      }
      const long = '9'.repeat(200);
      const accepted: [string, string][] = [
        ['1e39', `1${'0'.repeat(39)}`], ['-1e38', `-1${'0'.repeat(38)}`], ['1e-38', `0.${'0'.repeat(37)}1`], ['-0', '0'], ['6.02e23', '602000000000000000000000'],
        ['1e-30', `0.${'0'.repeat(29)}1`], [long, long], [`-${long}.5e-1`, `-${'9'.repeat(199)}.95`], ['1.7976931348623157', '1.7976931348623157'],
      ];
      for (const [sent, written] of accepted) {
        const res = await post(`{"n":${sent}}`);
        assert.equal(res.status, 201, `${sent}: ${res.text}`);
        const id = way === 'webhook' ? createdCaseId(res) : res.body.case.id;
        assert.equal(await storedAttributes(id), `{"n": ${written}}`, sent);
      }
    });
  }

  it('set_attributes: a template that yields a number written out too long fails the run and stores nothing', async () => {
    const a = await givenAutomation(t, { Open: [{ set_attributes: { copy: '{{ attributes.big }}' } }, { close: { outcome: 'Copied' } }] });
    // 1 and 300 zeros is accepted as sent; read back it is the double 1e300, which JSON writes as 1e+300.
    const big = `1${'0'.repeat(300)}`;
    const res = await t.request('POST', a.casesPath, { token: a.apiToken, rawBody: `{"attributes":{"customer_email":"${EMAIL}","big":${big}}}` });
    assert.equal(res.status, 201, res.text);
    await assertParkedInError(a, res.body.case.id, `set_attributes: /copy ${TOO_LARGE}`);
    assert.equal((await readCase(a, res.body.case.id)).body.case.attributes.copy, undefined);
  });

  it('http_request: an answer holding 1e131071 saved with save_response_as fails the run and stores nothing', async (ctx) => {
    const receiver = await receiverFor(ctx, () => ({ status: 200, rawBody: ATTACK }));
    const a = await givenAutomation(t, {
      Open: [{ http_request: { method: 'POST', url: `${receiver.url}/crm`, retries: 0, save_response_as: 'crm' } }, { close: { outcome: 'Synced' } }],
    });
    const id = await createCase(a);
    await assertParkedInError(a, id, `http_request: /crm/a/0 ${TOO_LARGE}`);
    assert.equal((await readCase(a, id)).body.case.attributes.crm, undefined);
  });

  it('definitions: a value written out too long is refused at its pointer', async () => {
    const org = await createOrganization(t);
    const rawBody =
      '{"name":"N","case_source":"direct","attributes":{"p":{"type":"number","enum":[1,1e300]}},"automations":{"Open":[{"set_attributes":{"x":5e-324}}]}}';
    const res = await t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, rawBody });
    assertRefusedAt(res, 'workflow_definition_invalid', [
      { path: '/attributes/p/enum/1', error: TOO_LARGE },
      { path: '/automations/Open/0/set_attributes/x', error: TOO_LARGE },
    ]);
  });

  describe('property: what is stored is bounded by what was sent', () => {
    const { object } = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        { weight: 4, arbitrary: hostileNumberText },
        { weight: 1, arbitrary: fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)) },
        { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null') },
        { weight: 1, arbitrary: tie('array') },
        { weight: 1, arbitrary: tie('object') },
      ),
      array: fc.array(tie('value'), { maxLength: 6 }).map((items) => `[${items.join(',')}]`),
      object: fc.array(fc.tuple(fc.string({ maxLength: 6 }), tie('value')), { maxLength: 6 }).map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    }));

    it(`every body is refused (exactly when Postgres would write a number longer than max(40, its text)) or reads back within ${FACTOR} x body + ${OVERHEAD} (150 runs)`, async (ctx) => {
      let created = 0;
      await fc.assert(
        fc.asyncProperty(object, fc.boolean(), async (attributes, webhook) => {
          const body = webhook ? attributes : `{"subject":"s","attributes":${attributes}}`;
          const res = webhook ? await viaWebhook(body) : await viaApi(attributes);
          const overlong = await holdsOverlongNumber(attributes);
          assert.equal(res.status, overlong ? 422 : 201, `${body.slice(0, 500)}: ${res.text.slice(0, 500)}`);
          if (overlong) return;
          created++;
          const stored = await storedAttributes(webhook ? createdCaseId(res) : res.body.case.id);
          assert.ok(stored.length <= FACTOR * body.length + OVERHEAD, `${body.length} characters sent, ${stored.length} read back: ${body.slice(0, 300)}`);
        }),
        { numRuns: 150 },
      );
      ctx.diagnostic(`${created} of 150 bodies created a case`);
      assert.ok(created >= 30, `enough bodies are accepted for the bound to mean something (${created})`);
    });

    it(`the worst case the rule allows stays within the bound: 4-character numbers written as 40`, async () => {
      const body = `{"n":[${Array(500).fill('1e39').join(',')}]}`;
      const stored = await storedAttributes(createdCaseId(await viaWebhook(body)));
      assert.ok(stored.length <= FACTOR * body.length + OVERHEAD, `${body.length} sent, ${stored.length} read back`);
    });
  });
});
