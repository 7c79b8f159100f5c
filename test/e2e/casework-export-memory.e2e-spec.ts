/**
 * The CSV export at a size no reply could be held for (casework.md, section 6): the API as a real
 * process, whose resident memory is read from /proc while it streams 100,000 cases.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type IsolatedDatabase, isolatedDatabase, isolatedRedisPrefix } from '../support/automation-helpers.js';
import { statusDefinition } from '../support/cases-api.js';
import { operatorToken } from '../support/scenario.js';
import { type ServiceProcess, spawnService } from '../support/service-process.js';

const MB = 1024 * 1024;
/** About 1 KB of attributes a case: 100,000 cases export as some 100 MB. */
const NOTES = 1000;

/** The process's resident memory now. */
function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!) * 1024;
}

describe('the CSV export in bounded memory', () => {
  let database: IsolatedDatabase;
  let api: ServiceProcess;
  let adminToken: string;

  /** A published workflow without automation, and `count` of its cases written straight into the table. */
  async function workflowWithCases(name: string, count: number): Promise<number> {
    const created = await api.request('POST', '/api/admin/v1/workflows', { token: adminToken, body: statusDefinition({ name }) });
    assert.equal(created.status, 201, created.text);
    const workflowId: number = created.body.workflow.id;
    assert.equal((await api.request('POST', `/api/admin/v1/workflows/${workflowId}/publish`, { token: adminToken })).status, 200);
    await database.pool.query(
      `INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes)
       SELECT w.organization_id, w.id, 1, 'Case ' || g, 'Open', 'live', 'API', jsonb_build_object('n', g, 'notes', repeat('x', $3))
       FROM workflows w, generate_series(1, $2) g WHERE w.id = $1`,
      [workflowId, count, NOTES],
    );
    return workflowId;
  }

  /**
   * Reads the workflow's export as it arrives, keeping none of it: with the API's largest RSS
   * meanwhile, and how far into the reply its first bytes came (a reply built before it is sent
   * would come at the very end).
   */
  async function exported(workflowId: number): Promise<{ records: number; bytes: number; peakRss: number; firstBytesAt: number }> {
    let peakRss = rssOf(api.pid);
    const sampler = setInterval(() => { peakRss = Math.max(peakRss, rssOf(api.pid)); }, 50);
    let bytes = 0;
    let records = 0;
    const started = performance.now();
    let firstChunk = 0;
    try {
      const response = await fetch(`${api.baseUrl}/api/admin/v1/cases/export.csv?workflow_id=${workflowId}&columns=id,subject,status,attributes`, { headers: { authorization: `Bearer ${adminToken}` } });
      assert.equal(response.status, 200);
      const decoder = new TextDecoder();
      for await (const chunk of response.body!) {
        firstChunk ||= performance.now();
        bytes += chunk.byteLength;
        // No field of these cases holds a line break: each LF ends a record (a chunk may split CR from LF).
        records += decoder.decode(chunk, { stream: true }).split('\n').length - 1;
      }
    } finally {
      clearInterval(sampler);
    }
    return { records, bytes, peakRss, firstBytesAt: (firstChunk - started) / (performance.now() - started) };
  }

  before(async () => {
    database = await isolatedDatabase();
    api = await spawnService('api', {
      DATABASE_URL: database.url,
      REDIS_PREFIX: isolatedRedisPrefix(),
      // An export's later pages go at its organization's budget of database time; raised here so
      // that it is not spread over minutes, which memory has nothing to do with.
      LIST_READ_DATABASE_MS_PER_SECOND: '100000',
      LIST_READ_DATABASE_BURST_MS: '600000',
      // A heap of a bit more than the service itself needs, far less than the export, and a small
      // young generation: V8 then collects before its heap grows (unbounded, it lets garbage pile
      // up by the hundred MB whatever the export holds, and grows the young generation with the
      // allocation rate), so RSS shows what the export keeps; a reply held in memory would not fit.
      NODE_OPTIONS: '--max-old-space-size=160 --max-semi-space-size=4',
    });
    const org = await api.request('POST', '/api/operator/v1/organizations', { token: operatorToken(), body: { name: 'Export org' } });
    assert.equal(org.status, 201, org.text);
    adminToken = org.body.admin_token;
  });
  after(async () => {
    await api?.kill();
    await database?.drop();
  });

  it('exports 100,000 cases as CSV with the API process\'s memory flat', async () => {
    // A fifth of the size first: the heap and the allocator settle at what streaming takes, so
    // what the large export adds beyond is what it would hold.
    const warmUp = await exported(await workflowWithCases('Warm-up', 20_000));
    assert.equal(warmUp.records, 20_001);
    const settled = rssOf(api.pid);
    const large = await exported(await workflowWithCases('Export', 100_000));
    assert.equal(large.records, 100_001, 'the header and every case');
    assert.ok(large.bytes > 100 * MB, `${large.bytes} bytes: more than a reply held in memory would add`);
    assert.ok(large.firstBytesAt < 0.2, `the first bytes came ${(large.firstBytesAt * 100).toFixed(0)} % into the reply: it is sent as it is read`);
    const growth = large.peakRss - Math.max(settled, warmUp.peakRss);
    const figures = `RSS ${(settled / MB).toFixed(0)} MB after 20,000 cases (peak ${(warmUp.peakRss / MB).toFixed(0)} MB), peak ${(large.peakRss / MB).toFixed(0)} MB while ${(large.bytes / MB).toFixed(0)} MB were exported`;
    // What the allocator keeps of the pages' buffers, never the reply: a reply held in memory
    // adds at least its 100 MB (twice that as a JS string). The allocator's share moved from run
    // to run, up to 55 MB in one CI run with reads on a replica, so the bound is two thirds.
    assert.ok(growth < 64 * MB, figures);
  });
});
