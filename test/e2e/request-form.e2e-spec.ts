/**
 * The hosted request form of ticketing workflows, through HTTP: its URL (generate, view,
 * rotate), the page drawn from the attribute schema, typed conversion of posts, errors next to
 * their fields, the honeypot, hostile and unknown requests, and the headers of every page.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createOrganization, createWorkflow, operatorToken } from '../support/scenario.js';
import { closeDb, db, startTestApp, type InjectResult, type TestApp } from '../support/test-app.js';
import { attribute, formDefinition, type FormWorkflow, givenFormWorkflow, postForm, validFields } from '../support/form-helpers.js';

const FORM_URL = /^http:\/\/[^/]+\/forms\/[A-Za-z0-9_-]{43}$/;

async function casesOf(workflowId: number): Promise<{ id: string; source: string; subject: string; attributes: string }[]> {
  const { rows } = await db().query('SELECT id, source, subject, attributes::text AS attributes FROM cases WHERE workflow_id = $1 ORDER BY id', [workflowId]);
  return rows;
}

/** The markup of the field whose control is `name`: its wrapper `<div>`, label, notes and control. */
function fieldHtml(page: string, name: string): string {
  const escaped = name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  const at = page.indexOf(`name="${escaped}"`);
  assert.ok(at > 0, `no control named ${name}`);
  const start = page.lastIndexOf('<div class="field', at);
  return page.slice(start, page.indexOf('\n</div>', at));
}

/** The id of the control in a field's markup. */
function idIn(field: string): string {
  return / id="([^"]+)" name="/.exec(field)![1]!;
}

function assertPageHeaders(res: InjectResult, what: string): void {
  assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8$/, what);
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/, what);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(res.headers['referrer-policy'], 'no-referrer', what);
  assert.equal(res.headers['cache-control'], 'no-store', what);
  assert.equal(res.headers['x-frame-options'], 'DENY', what);
  assert.equal(res.headers['set-cookie'], undefined, `${what}: no cookie, ever`);
}

describe('hosted request form', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); await closeDb(); });

  describe('the form URL: generate, view, rotate', () => {
    it('generates one secret URL per ticketing workflow, the same when asked again, shown by GET, stored hashed and sealed', async () => {
      const w = await givenFormWorkflow(t);
      assert.match(w.url, FORM_URL);
      const again = await t.request('POST', `/api/admin/v1/workflows/${w.workflowId}/form`, { token: w.org.adminToken });
      assert.deepEqual([again.status, again.body], [201, { form: { url: w.url } }]);
      const shown = await t.request('GET', `/api/admin/v1/workflows/${w.workflowId}/form`, { token: w.org.adminToken });
      assert.deepEqual([shown.status, shown.body], [200, { form: { url: w.url } }]);
      const { rows } = await db().query('SELECT secret_hash, secret_ciphertext FROM workflow_forms WHERE workflow_id = $1', [w.workflowId]);
      assert.equal(rows.length, 1);
      assert.ok(!JSON.stringify(rows).includes(w.path.split('/').pop()!), 'the secret is not stored in plain text');
    });

    it('422 unless the workflow is published with case source ticketing; 404 before one exists or outside the organization', async () => {
      const org = await createOrganization(t);
      const direct = await createWorkflow(t, org, formDefinition({ case_source: 'direct' }));
      const draft = await createWorkflow(t, org, formDefinition(), false);
      for (const id of [direct, draft]) {
        const res = await t.request('POST', `/api/admin/v1/workflows/${id}/form`, { token: org.adminToken });
        assert.equal(res.status, 422, res.text);
        assert.equal((await t.request('GET', `/api/admin/v1/workflows/${id}/form`, { token: org.adminToken })).status, 404);
      }
      const other = await givenFormWorkflow(t);
      assert.equal((await t.request('GET', `/api/admin/v1/workflows/${other.workflowId}/form`, { token: org.adminToken })).status, 404);
      assert.equal((await t.request('POST', `/api/admin/v1/workflows/${other.workflowId}/form`, { token: org.adminToken })).status, 404);
      assert.equal((await t.request('POST', `/api/operator/v1/workflows/${draft}/form/rotate`, { token: operatorToken() })).status, 404);
    });

    it('rotation: a new URL, and the old form, its posts and its confirmation pages answer 404 at once', async () => {
      const w = await givenFormWorkflow(t);
      const posted = await postForm(t, w.path, validFields());
      assert.equal(posted.status, 303, posted.text);
      const confirmation = `${w.path}/received/${String(posted.headers.location).split('/').pop()}`;
      const rotated = await t.request('POST', `/api/operator/v1/workflows/${w.workflowId}/form/rotate`, { token: operatorToken() });
      assert.equal(rotated.status, 200, rotated.text);
      assert.match(rotated.body.form.url, FORM_URL);
      assert.notEqual(rotated.body.form.url, w.url);
      for (const res of [await t.request('GET', w.path), await postForm(t, w.path, validFields()), await t.request('GET', confirmation), await t.request('GET', `${w.path}/received`)]) {
        assert.equal(res.status, 404, res.text);
        assertPageHeaders(res, 'the old URL');
      }
      assert.equal((await casesOf(w.workflowId)).length, 1, 'the post to the old URL created nothing');
      assert.equal((await t.request('GET', new URL(rotated.body.form.url).pathname)).status, 200);
      const shown = await t.request('GET', `/api/admin/v1/workflows/${w.workflowId}/form`, { token: w.org.adminToken });
      assert.equal(shown.body.form.url, rotated.body.form.url);
    });
  });

  describe('the page', () => {
    let w: FormWorkflow;
    let page: InjectResult;
    before(async () => {
      w = await givenFormWorkflow(t);
      page = await t.request('GET', w.path);
    });

    it('renders every field type from the attribute schema, required ones marked, each with its label', () => {
      assert.equal(page.status, 200);
      const expected: [string, RegExp][] = [
        ['subject', /<input type="text" id="subject" name="subject"[^>]* maxlength="1000">/],
        [attribute('description'), /<textarea id="field-1" name="attribute:description">/],
        [attribute('requester_email'), /<input type="email" id="field-\d+" name="attribute:requester_email" required value="">/],
        [attribute('site'), /<input type="url" id="field-\d+" name="attribute:site" value="">/],
        [attribute('due'), /<input type="date" id="field-\d+" name="attribute:due" value="">/],
        [attribute('seen_at'), /<input type="datetime-local" step="1" id="(field-\d+)" name="attribute:seen_at" aria-describedby="\1-hint" value="">/],
        [attribute('room'), /<input type="text" id="field-\d+" name="attribute:room" value="">/],
        [attribute('seats'), /<input type="text" inputmode="numeric" id="(field-\d+)" name="attribute:seats" aria-describedby="\1-hint" required value="">/],
        [attribute('budget'), /<input type="text" inputmode="decimal" id="field-\d+" name="attribute:budget"/],
        [attribute('urgent'), /<input type="checkbox" value="true" id="field-\d+" name="attribute:urgent">/],
        [attribute('priority'), /<select id="field-\d+" name="attribute:priority" required><option value="">Choose…<\/option><option value="&quot;low&quot;">low<\/option><option value="&quot;high&quot;">high<\/option><\/select>/],
        [attribute('details'), /<textarea class="json" spellcheck="false" id="(field-\d+)" name="attribute:details" aria-describedby="\1-hint">/],
        [attribute('tags'), /<textarea class="json" spellcheck="false" id="field-\d+" name="attribute:tags"/],
        [attribute('extra'), /<textarea class="json" spellcheck="false" id="field-\d+" name="attribute:extra"/],
      ];
      const ids = new Set<string>();
      for (const [name, control] of expected) {
        const field = fieldHtml(page.text, name);
        assert.match(field, control, name);
        const id = idIn(field);
        ids.add(id);
        assert.match(field, new RegExp(`<label for="${id}">`), `${name} has a label`);
      }
      assert.equal(ids.size, expected.length, 'every control has its own id');
      assert.match(fieldHtml(page.text, attribute('requester_email')), /<label for="field-\d+">Requester email \(required\)<\/label>/);
      assert.match(fieldHtml(page.text, attribute('priority')), /Priority \(required\)/);
      assert.doesNotMatch(fieldHtml(page.text, attribute('urgent')), /required/, 'a checkbox is never required: unticked is false');
    });

    it('escapes every value: the workflow name and attribute names are admin input', () => {
      assert.match(page.text, /<title>IT &lt;help&gt; &amp; &quot;requests&quot; – request form<\/title>/);
      assert.match(page.text, /<h1>IT &lt;help&gt; &amp; &quot;requests&quot;<\/h1>/);
      assert.match(page.text, /name="attribute:&lt;b&gt;&quot;odd&quot;&lt;\/b&gt;"/);
      assert.doesNotMatch(page.text, /<b>/);
    });

    it('works without JavaScript and loads nothing: no script, no external resource, a lang and a title', () => {
      assert.doesNotMatch(page.text, /<script|<link|<img|<iframe|src=|https?:\/\//i);
      assert.match(page.text, /^<!doctype html>\n<html lang="en">/);
      assert.match(page.text, /<form method="post" novalidate>/);
    });

    it('has a labelled honeypot that people skip: visually hidden, out of the tab order, no autofill', () => {
      assert.match(page.text, /<div class="visually-hidden">\n<label for="website">Leave this field empty[^<]*<\/label>\n<input type="text" id="website" name="website" tabindex="-1" autocomplete="off">/);
    });

    it('sends the security headers on every page: strict CSP whose style hash is the inline sheet\'s, nosniff, no referrer, no cache', () => {
      assertPageHeaders(page, 'the form');
      const css = /<style>([\s\S]*?)<\/style>/.exec(page.text)![1]!;
      const hash = createHash('sha256').update(css).digest('base64');
      assert.ok(String(page.headers['content-security-policy']).includes(`'sha256-${hash}'`), 'the CSP allows exactly the inline style sheet');
    });
  });

  describe('posting', () => {
    it('a valid post: 303 to a confirmation page with the case id, a Form case with typed attributes, exact numbers and JSON', async () => {
      const w = await givenFormWorkflow(t);
      const res = await postForm(t, w.path, validFields());
      assert.equal(res.status, 303, res.text);
      assertPageHeaders({ ...res, headers: { ...res.headers, 'content-type': 'text/html; charset=utf-8' } }, 'the redirect');
      const [created] = await casesOf(w.workflowId);
      assert.ok(created);
      assert.equal(res.headers.location, `${w.path.split('/').pop()}/received/${created.id}`);
      assert.equal(created.source, 'Form');
      assert.equal(created.subject, 'Projector in room 4');
      const attributes = JSON.parse(created.attributes);
      assert.deepEqual({ ...attributes, details: undefined }, {
        description: 'It flickers.\nSince Monday.',
        requester_email: 'ana@example.com',
        site: 'https://example.com/rooms/4',
        due: '2025-02-03',
        seen_at: '2025-01-31T09:30:00Z',
        seats: 12,
        budget: attributes.budget,
        urgent: true,
        priority: 'high',
        details: undefined,
        tags: ['av', 'room-4'],
        extra: 42,
      });
      assert.ok(created.attributes.includes('"budget": 1234567890.123456789012'), created.attributes);
      assert.ok(created.attributes.includes('"lamp_hours": 18446744073709551617'), created.attributes);
      assert.ok(!('room' in attributes), 'an empty optional field is left out');

      const confirmation = await t.request('GET', `${w.path}/received/${created.id}`);
      assert.equal(confirmation.status, 200);
      assertPageHeaders(confirmation, 'the confirmation page');
      assert.match(confirmation.text, new RegExp(`case number <strong>${created.id}</strong>`));

      const admin = await t.request('GET', `/api/admin/v1/cases/${created.id}`, { token: w.org.adminToken });
      assert.equal(admin.body.case.source_type, 'Form');
      const timeline = await t.request('GET', `/api/admin/v1/cases/${created.id}/timeline`, { token: w.org.adminToken });
      assert.deepEqual(timeline.body.events[0].by, { type: 'form' });
      assert.equal(timeline.body.events[0].source, 'Form');
      const listed = await t.request('GET', `/api/admin/v1/cases?workflow_id=${w.workflowId}&source=Form`, { token: w.org.adminToken });
      assert.deepEqual(listed.body.cases.map((c: { id: number }) => c.id), [Number(created.id)]);
    });

    it('an unticked checkbox is false; an empty subject becomes "<name> via Form - <time> UTC"', async () => {
      const w = await givenFormWorkflow(t);
      const fields = { ...validFields(), subject: '  ' };
      delete (fields as Record<string, string>)[attribute('urgent')];
      assert.equal((await postForm(t, w.path, fields)).status, 303);
      const [created] = await casesOf(w.workflowId);
      assert.equal(JSON.parse(created!.attributes).urgent, false);
      assert.match(created!.subject, /^IT <help> & "requests" via Form - \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    });

    it('an invalid post: 422, the form again with the values kept (escaped) and each error next to its field, listed at the top; no case', async () => {
      const w = await givenFormWorkflow(t);
      const fields = {
        ...validFields(),
        [attribute('requester_email')]: 'not an address',
        [attribute('seats')]: 'twelve',
        [attribute('priority')]: '',
        [attribute('details')]: '{"open": ',
        [attribute('room')]: '<b>"4"</b> & co',
      };
      const res = await postForm(t, w.path, fields);
      assert.equal(res.status, 422, res.text);
      assertPageHeaders(res, 'the form with errors');
      assert.match(res.text, /<title>Error: IT &lt;help&gt;/);
      // The schema's checks of the readable fields come along with the fields that could not be read.
      const errors: [string, RegExp][] = [
        [attribute('requester_email'), /Enter an email address/],
        [attribute('seats'), /Enter a whole number/],
        [attribute('priority'), /Fill in this field: it is required\./],
        [attribute('details'), /Enter valid JSON/],
      ];
      for (const [name, message] of errors) {
        const field = fieldHtml(res.text, name);
        const id = idIn(field);
        assert.match(field, new RegExp(`<p class="error" id="${id}-error"><span class="visually-hidden">Error:</span> [^<]*`), name);
        assert.match(field, message, name);
        assert.match(field, /aria-invalid="true"/, name);
        assert.match(field, new RegExp(`aria-describedby="([^"]* )?${id}-error"`), name);
        assert.match(res.text, new RegExp(`<li><a href="#${id}">[^<]+</a></li>`), `${name} is listed in the summary`);
      }
      assert.match(res.text, /<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus>/);
      assert.match(fieldHtml(res.text, attribute('room')), /value="&lt;b&gt;&quot;4&quot;&lt;\/b&gt; &amp; co"/, 'the value is kept, escaped');
      assert.match(fieldHtml(res.text, attribute('seats')), /value="twelve"/);
      assert.match(fieldHtml(res.text, attribute('details')), /<textarea [^>]*>\n\{&quot;open&quot;: <\/textarea>/);
      assert.match(fieldHtml(res.text, attribute('urgent')), / checked>/);
      assert.match(fieldHtml(res.text, 'subject'), /value="Projector in room 4"/);
      assert.deepEqual(await casesOf(w.workflowId), []);
    });

    it('the attribute schema\'s own checks (formats, numbers too long to store) come back next to their fields; no case', async () => {
      const w = await givenFormWorkflow(t);
      const format = await postForm(t, w.path, { ...validFields(), [attribute('requester_email')]: 'not an address', [attribute('site')]: 'no scheme' });
      assert.equal(format.status, 422, format.text);
      assert.match(fieldHtml(format.text, attribute('requester_email')), /<p class="error" id="field-\d+-error">.*Enter an email address/);
      assert.match(fieldHtml(format.text, attribute('site')), /<p class="error" id="field-\d+-error">.*Enter a full web address/);
      const tooLong = await postForm(t, w.path, { ...validFields(), [attribute('budget')]: '1e41' });
      assert.equal(tooLong.status, 422, tooLong.text);
      assert.match(fieldHtml(tooLong.text, attribute('budget')), /<p class="error" id="field-\d+-error">.*Number is too large to store exactly/);
      assert.deepEqual(await casesOf(w.workflowId), []);
    });

    it('on a sensitive workflow only declared attributes are drawn and kept: no description field', async () => {
      const w = await givenFormWorkflow(t, formDefinition({ sensitive_data: true, attributes: { requester_email: { type: 'string', required: true, format: 'email' } } }));
      const page = await t.request('GET', w.path);
      assert.doesNotMatch(page.text, /attribute:description/);
      const refused = await postForm(t, w.path, { [attribute('requester_email')]: 'ana@example.com', [attribute('description')]: 'extra', [attribute('other')]: 'x' });
      assert.equal(refused.status, 303, 'undrawn fields are ignored');
      const [created] = await casesOf(w.workflowId);
      assert.equal(created!.attributes, '{"requester_email": "ana@example.com"}');
    });

    it('the honeypot filled in: the confirmation page (without a case id) and no case', async () => {
      const w = await givenFormWorkflow(t);
      const res = await postForm(t, w.path, { ...validFields(), website: 'https://spam.example' });
      assert.equal(res.status, 303);
      assert.equal(res.headers.location, `${w.path.split('/').pop()}/received`);
      const page = await t.request('GET', `${w.path}/received`);
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>Request received<\/h1>/);
      assert.doesNotMatch(page.text, /case number/);
      assert.deepEqual(await casesOf(w.workflowId), []);
    });

    it('a form post of 1 MB is refused with a 413 page and nothing created; so is one just over 64 KB', async () => {
      const w = await givenFormWorkflow(t);
      for (const size of [1_048_576, 65_537]) {
        const body = `${new URLSearchParams(validFields()).toString()}&${attribute('room')}=${'a'.repeat(size)}`;
        const res = await postForm(t, w.path, body);
        assert.equal(res.status, 413, `${size} bytes`);
        assertPageHeaders(res, 'the 413 page');
        assert.match(res.text, /<h1>Request too large<\/h1>/);
      }
      assert.deepEqual(await casesOf(w.workflowId), []);
    });

    it('a body that is not a form (JSON) is refused with 415 and no case; other routes still refuse form bodies with 415', async () => {
      const w = await givenFormWorkflow(t);
      const json = await t.request('POST', w.path, { body: { subject: 'x' } });
      assert.equal(json.status, 415, json.text);
      assert.match(String(json.headers['content-type']), /^text\/html/);
      const api = await t.request('POST', '/api/admin/v1/tokens', { token: w.org.adminToken, rawBody: 'name=x&scope=api', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(api.status, 415, api.text);
      assert.deepEqual(await casesOf(w.workflowId), []);
    });
  });

  describe('unknown forms', () => {
    it('an unknown, malformed, unpublished or no longer ticketing form answers a 404 page to GET, POST and its confirmation pages', async () => {
      const unpublished = await givenFormWorkflow(t);
      const unpublish = await t.request('POST', `/api/admin/v1/workflows/${unpublished.workflowId}/unpublish`, { token: unpublished.org.adminToken });
      assert.equal(unpublish.status, 200, unpublish.text);
      const direct = await givenFormWorkflow(t);
      const changed = await t.request('PUT', `/api/admin/v1/workflows/${direct.workflowId}`, { token: direct.org.adminToken, body: formDefinition({ case_source: 'direct' }) });
      assert.equal(changed.status, 200, changed.text);
      assert.equal((await t.request('POST', `/api/admin/v1/workflows/${direct.workflowId}/publish`, { token: direct.org.adminToken })).status, 200);
      const paths = [`/forms/${'A'.repeat(43)}`, '/forms/not-a-secret', "/forms/%3Cscript%3E'", unpublished.path, direct.path];
      for (const path of paths) {
        for (const res of [await t.request('GET', path), await postForm(t, path, validFields()), await t.request('GET', `${path}/received/1`), await t.request('GET', `${path}/received`)]) {
          assert.equal(res.status, 404, `${path}: ${res.text}`);
          assertPageHeaders(res, path);
          assert.match(res.text, /<h1>Page not found<\/h1>/);
          assert.doesNotMatch(res.text, /script/);
        }
      }
      assert.deepEqual([...(await casesOf(unpublished.workflowId)), ...(await casesOf(direct.workflowId))], []);
      const live = await givenFormWorkflow(t);
      assert.equal((await t.request('GET', `${live.path}/received/0`)).status, 404, 'a confirmation page shows case ids only');
      assert.equal((await t.request('GET', `${live.path}/received/12abc`)).status, 404);
    });
  });
});

describe('hosted request form: per-address rate limit', () => {
  let t: TestApp;
  // A prefix of its own: the windows of the first app's requests (all from 127.0.0.1) are not this app's.
  before(async () => { t = await startTestApp({ env: { RATE_LIMIT_PER_ADDRESS: '5', ROLE: 'api', REDIS_PREFIX: `form-limit-${randomBytes(4).toString('hex')}` } }); });
  after(async () => { await t.close(); await closeDb(); });

  it('the form pages count against the per-address limit: past it, a 429 page with Retry-After, and no case', async () => {
    const w = await givenFormWorkflow(t);
    const fastify = t.app.getHttpAdapter().getInstance();
    const address = `10.91.${Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 200) + 1}`;
    const answers: { statusCode: number; headers: Record<string, unknown>; body: string }[] = [];
    for (let i = 0; i < 7; i++) {
      answers.push(await fastify.inject({ method: 'POST', url: w.path, remoteAddress: address, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(validFields()).toString() }));
    }
    assert.deepEqual(answers.map((a) => a.statusCode), [303, 303, 303, 303, 303, 429, 429]);
    const limited = answers.at(-1)!;
    assert.match(String(limited.headers['content-type']), /^text\/html/);
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assert.match(limited.body, /<h1>Too many requests<\/h1>/);
    assert.equal((await casesOf(w.workflowId)).length, 5);
  });
});

describe('hosted request form: per-form window', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp({ env: { RATE_LIMIT_PER_ADDRESS: '0', FORM_POSTS_PER_MINUTE: '3', ROLE: 'api' } }); });
  after(async () => { await t.close(); await closeDb(); });

  it('posts to one form count in its window, from every address together: past it, a 429 page with Retry-After and no case, while other forms and the form page are not limited', async () => {
    const [w, other] = [await givenFormWorkflow(t), await givenFormWorkflow(t)];
    const fastify = t.app.getHttpAdapter().getInstance();
    const post = (path: string, i: number) =>
      fastify.inject({ method: 'POST', url: path, remoteAddress: `10.92.${i}.${Math.floor(Math.random() * 200) + 1}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(validFields()).toString() });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await post(w.path, i));
    assert.deepEqual(answers.map((a) => a.statusCode), [303, 303, 303, 429, 429]);
    const limited = answers.at(-1)!;
    assert.match(String(limited.headers['content-type']), /^text\/html/);
    assert.ok(Number(limited.headers['retry-after']) >= 1 && Number(limited.headers['retry-after']) <= 60);
    assert.match(limited.body, /<h1>Too many requests<\/h1>/);
    assert.equal((await casesOf(w.workflowId)).length, 3);
    assert.equal((await t.request('GET', w.path)).status, 200, 'the form page itself is not a post');
    assert.equal((await post(other.path, 0)).statusCode, 303, "another form has a window of its own");
  });
});
