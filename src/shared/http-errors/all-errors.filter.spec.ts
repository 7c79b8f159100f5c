import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ArgumentsHost } from '@nestjs/common';
import { NotFoundError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import { AllErrorsFilter } from './all-errors.filter.js';

/** Runs the filter on `error` for a request to `route`; answers what it sent and logged. */
function filter(error: unknown) {
  const logged: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const logAt = (level: string) => (fields: Record<string, unknown>, message: string) => logged.push({ level, fields, message });
  const logger = { warn: logAt('warn'), error: logAt('error') } as unknown as Logger;
  const sent: { status?: number; body?: string } = {};
  const reply = {
    headers: () => reply,
    header: () => reply,
    status: (status: number) => ((sent.status = status), reply),
    send: (body: string) => ((sent.body = body), reply),
  };
  const request = { method: 'POST', url: '/webhooks/secret-token', routeOptions: { url: '/webhooks/:token', config: {} } };
  const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ArgumentsHost;
  new AllErrorsFilter(logger).catch(error, host);
  return { sent, logged };
}

describe('AllErrorsFilter', () => {
  it('answers a database that did not answer in time with 503, and logs it as a warning by route, never by URL', () => {
    const { sent, logged } = filter(new Error('Query read timeout'));
    assert.equal(sent.status, 503);
    assert.deepEqual(logged, [{ level: 'warn', fields: { method: 'POST', route: '/webhooks/:token', err: 'Query read timeout' }, message: 'database unavailable; answered 503' }]);
  });

  it('logs an unexpected error as an error, and an expected answer not at all', () => {
    const unexpected = filter(new TypeError('x is undefined'));
    assert.equal(unexpected.sent.status, 500);
    assert.deepEqual(unexpected.logged.map((l) => [l.level, l.message]), [['error', 'unexpected error']]);
    const expected = filter(new NotFoundError('case'));
    assert.equal(expected.sent.status, 404);
    assert.deepEqual(expected.logged, []);
  });
});
