import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Transaction } from '../../../shared/database/transaction.js';
import type { Logger } from '../../../shared/logging/logger.js';
import type { CaseSearchFeed, ChangedCase } from '../../cases/application/case-search-feed.js';
import type { CaseProps } from '../../cases/domain/case.js';
import type { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { SearchText } from '../domain/search-document.js';
import type { CaseMessageSource } from './case-message-sources.js';
import { SearchIndexer } from './search-indexer.service.js';
import type { CaseDocument, IndexedPosition, SearchIndexMetrics, SearchIndexStore } from './search.ports.js';

/**
 * The indexer passes over a case whose words it wrote last (a status, assignee or run change),
 * and writes it again when its words, its messages or its workflow version changed, or when
 * another indexer may have written in between.
 */

const aCase = (changes: Partial<CaseProps> = {}): CaseProps => ({
  id: 1, organizationId: 1, workflowId: 7, workflowVersion: 1, subject: 'Printer on fire', status: 'Open', outcome: null, mode: 'live',
  source: 'API', attributes: '{"order":"ORD-99812"}', priority: 'normal', assigneeId: null, teamId: null,
  createdAt: new Date(0), updatedAt: new Date(0), ...changes,
});

function indexerOver(comments: Map<number, SearchText[]>) {
  const written: CaseDocument[][] = [];
  let changed: ChangedCase[] = [];
  let lockHeld = false;
  const store = {
    exclusively: async <T>(work: (tx: Transaction) => Promise<T>) => (lockHeld ? undefined : work({} as Transaction)),
    positions: async () => [],
    save: async (_tx: Transaction, documents: readonly CaseDocument[], _positions: readonly IndexedPosition[]) => void written.push([...documents]),
  } as unknown as SearchIndexStore;
  const feed = { changedAfter: async () => changed } as unknown as CaseSearchFeed;
  const published = {
    everPublished: async () => [{ id: 7, organizationId: 1 }],
    version: async () => ({ definition: { attributes: {}, sensitive_data: false } }),
  } as unknown as PublishedWorkflowsService;
  const source: CaseMessageSource = { textsOf: async () => comments };
  const indexer = new SearchIndexer(store, feed, published, [source], {} as SearchIndexMetrics, {} as Logger);
  /** Runs a pass over `cases` changed; the cases whose documents it wrote. */
  const pass = async (...cases: CaseProps[]) => {
    changed = cases.map((c, i) => ({ case: c, xid: String(i + 1) }));
    written.length = 0;
    await indexer.pass();
    return written.flat().map((d) => d.caseId);
  };
  return { pass, holdLockElsewhere: (held: boolean) => (lockHeld = held) };
}

describe('SearchIndexer', () => {
  it('writes a case again only when what its document is made of changed', async () => {
    const comments = new Map<number, SearchText[]>();
    const { pass } = indexerOver(comments);
    assert.deepEqual(await pass(aCase()), [1]);
    assert.deepEqual(await pass(aCase({ status: 'Triage', assigneeId: 3, updatedAt: new Date(1) })), [], 'status and assignee carry no words');
    assert.deepEqual(await pass(aCase({ attributes: '{"order":"ORD-99813"}' })), [1]);
    assert.deepEqual(await pass(aCase({ attributes: '{"order":"ORD-99813"}', subject: 'Printer fixed' })), [1]);
    assert.deepEqual(await pass(aCase({ attributes: '{"order":"ORD-99813"}', subject: 'Printer fixed', workflowVersion: 2 })), [1]);
    comments.set(1, [{ field: 'comment', pointer: '/comments/5', text: 'toner ordered' }]);
    assert.deepEqual(await pass(aCase({ attributes: '{"order":"ORD-99813"}', subject: 'Printer fixed', workflowVersion: 2 })), [1], 'a new comment');
    assert.deepEqual(await pass(aCase({ attributes: '{"order":"ORD-99813"}', subject: 'Printer fixed', workflowVersion: 2, status: 'Closed' })), []);
  });

  it('forgets what it wrote once another indexer held the lock', async () => {
    const { pass, holdLockElsewhere } = indexerOver(new Map());
    assert.deepEqual(await pass(aCase()), [1]);
    holdLockElsewhere(true);
    assert.deepEqual(await pass(aCase({ status: 'Triage' })), []);
    holdLockElsewhere(false);
    assert.deepEqual(await pass(aCase({ status: 'Closed' })), [1]);
  });
});
