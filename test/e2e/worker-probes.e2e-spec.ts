import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type IsolatedDatabase, isolatedDatabase, isolatedRedisPrefix } from '../support/automation-helpers.js';
import { type ServiceProcess, spawnService } from '../support/service-process.js';

/** A worker serves its probes: the worker Deployment in deploy/kubernetes/ asks /readyz and /healthz. */
describe('a ROLE=worker process', () => {
  let database: IsolatedDatabase;
  let worker: ServiceProcess;
  before(async () => {
    database = await isolatedDatabase();
    worker = await spawnService('worker', { DATABASE_URL: database.url, REDIS_PREFIX: isolatedRedisPrefix() });
  });
  after(async () => {
    await worker?.kill('SIGTERM');
    await database?.drop();
  });

  it('answers /healthz and /readyz, which its probes use', async () => {
    const healthz = await worker.request('GET', '/healthz');
    assert.equal(healthz.status, 200, worker.describe());
    const readyz = await worker.request('GET', '/readyz');
    assert.equal(readyz.status, 200, readyz.text);
    assert.deepEqual(readyz.body, { status: 'ready', postgres: 'ok', redis: 'ok' });
  });
});
