import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Logger } from '../../../../shared/logging/logger.js';
import type { OutboundHttp, OutboundRequest } from '../../../../shared/outbound/outbound-http.js';
import type { SecretsService } from '../../../secrets/application/secrets.service.js';
import { StepRunner, type StepSite } from '../step-runner.js';
import { HttpRequestStep, parseAnswer } from './http-request.step.js';

const KEY = 'k3y/with&chars';
const context = {
  run: { stepAttempts: 0 },
  case: { organizationId: 7 },
  scope: { case: { id: 1, subject: 'S', status: 'Open', mode: 'live', workflow_id: 2 }, attributes: {} },
} as unknown as StepSite;

/** The step with an outbound client that answers `answer` (or throws it) and an organization holding KEY as CRM_KEY. */
function stepWith(answer: (req: OutboundRequest) => Promise<{ status: number; text: string }>) {
  const sent: OutboundRequest[] = [];
  const asked: string[][] = [];
  const http = { send: (req: OutboundRequest) => (sent.push(req), answer(req)) } as unknown as OutboundHttp;
  const secrets = {
    resolve: async (organizationId: number, names: string[]) => {
      assert.equal(organizationId, 7);
      asked.push(names);
      return { found: names.includes('CRM_KEY') ? { CRM_KEY: KEY } : {}, missing: names.filter((n) => n !== 'CRM_KEY') };
    },
  } as unknown as SecretsService;
  // Through the engine's runner, which gives the step its context and masks the secrets it resolved.
  const runner = new StepRunner(new Map([['http_request', new HttpRequestStep()]]), http, secrets, {} as Logger);
  return { step: { execute: (args: unknown, site: StepSite) => runner.run('http_request', args, site) }, sent, asked };
}

const request = {
  method: 'POST',
  url: 'https://crm.example/hooks?key={{ secrets.CRM_KEY }}',
  headers: { authorization: 'Bearer {{ secrets.CRM_KEY }}' },
  body: { token: '{{ secrets.CRM_KEY }}' },
  retries: 0,
};

describe('HttpRequestStep and secrets', () => {
  it('looks the secrets up once, for the names the step uses, and sends their values', async () => {
    const { step, sent, asked } = stepWith(async () => ({ status: 200, text: '' }));
    const outcome = await step.execute(request, context);
    assert.deepEqual(asked, [['CRM_KEY']]);
    assert.equal(sent[0]!.url, `https://crm.example/hooks?key=${encodeURIComponent(KEY)}`);
    assert.equal(sent[0]!.headers!.authorization, `Bearer ${KEY}`);
    assert.equal(sent[0]!.body, JSON.stringify({ token: KEY }));
    assert.deepEqual(outcome, { kind: 'next', note: { method: 'POST', url: 'https://crm.example/hooks', status: 200 } });
  });

  it('shows [secret NAME] where an error message would echo a value, raw or percent-encoded', async () => {
    const { step } = stepWith(async (req) => {
      throw new Error(`refused ${req.url} with ${req.headers!.authorization}`);
    });
    const outcome = await step.execute(request, context);
    assert.equal(outcome.kind, 'fail');
    const error = outcome.kind === 'fail' ? outcome.error : '';
    assert.ok(!error.includes(KEY) && !error.includes(encodeURIComponent(KEY)), error);
    assert.match(error, /refused https:\/\/crm\.example\/hooks\?key=\[secret CRM_KEY\] with Bearer \[secret CRM_KEY\]/);
  });

  it('fails naming a missing secret, and sends nothing', async () => {
    const { step, sent } = stepWith(async () => ({ status: 200, text: '' }));
    const outcome = await step.execute({ ...request, headers: { 'x-other': '{{ secrets.OTHER_KEY }}' } }, context);
    assert.deepEqual(outcome, { kind: 'fail', error: 'http_request: secret OTHER_KEY does not exist' });
    assert.equal(sent.length, 0);
  });

  it('a step whose url comes from an attribute (a version published before definitions refused it) fails, looks no secret up and sends nothing', async () => {
    const { step, sent, asked } = stepWith(async () => ({ status: 200, text: '' }));
    const toSender = { ...context, scope: { ...context.scope, attributes: { link: 'https://sender.example/collect' } } } as StepSite;
    const outcome = await step.execute({ method: 'POST', url: '{{ attributes.link }}', url_from_attribute: true, headers: request.headers, retries: 0 }, toSender);
    assert.deepEqual(outcome, { kind: 'fail', error: 'http_request: a url taken from an attribute cannot carry secrets; nothing was sent' });
    assert.deepEqual([sent.length, asked.length], [0, 0]);
  });

  it('asks for no secret when the step uses none', async () => {
    const { step, asked } = stepWith(async () => ({ status: 200, text: '' }));
    await step.execute({ method: 'GET', url: 'https://crm.example/{{ case.id }}' }, context);
    assert.deepEqual(asked, [[]]);
  });
});

describe('HttpRequestStep and a receiver answer nested beyond bounds', () => {
  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  it('refuses to save an answer nested 100,000 levels deep, naming the bound, instead of overflowing the stack', async () => {
    const { step } = stepWith(async () => ({ status: 200, text: deep(100_000) }));
    const outcome = await step.execute({ method: 'GET', url: 'https://crm.example/a', save_response_as: 'crm', retries: 0 }, context);
    assert.equal(outcome.kind, 'fail');
    assert.match(outcome.kind === 'fail' ? outcome.error : '', /\/crm.*nests deeper than 64 levels/);
  });

  it('reads an answer nested 64 levels deep as JSON, and one nested deeper as text', () => {
    assert.ok(Array.isArray(parseAnswer(deep(64))));
    assert.equal(parseAnswer(deep(65)), deep(65));
  });
});
