import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Transaction } from '../../../shared/database/transaction.js';
import { createLogger } from '../../../shared/logging/logger.js';
import { CaseSearchFeed, type CaseReply, type ChangedCase, type WorkflowFeedPosition } from '../../cases/application/case-search-feed.js';
import type { CaseProps } from '../../cases/domain/case.js';
import type { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { SearchText } from '../domain/search-document.js';
import type { CaseMessageSource } from './case-message-sources.js';
import { SearchIndexer, sourceDigest } from './search-indexer.service.js';
import { type CaseDocument, type CaseKey, type IndexedPosition, SearchIndexMetrics, SearchIndexStore } from './search.ports.js';

const CASE: CaseProps = {
  id: 42, organizationId: 1, workflowId: 7, workflowVersion: 1, subject: 'Printer on fire', status: 'Open', outcome: null, mode: 'live',
  source: 'Webhook', attributes: '{"order":{"id":"ORD-99812"}}', priority: 'normal', assigneeId: null, teamId: null,
  createdAt: new Date(0), updatedAt: new Date(0),
};

/** The documents' table in memory, keeping what each save was handed. */
class DocumentsInMemory extends SearchIndexStore {
  readonly saved: CaseDocument[][] = [];
  readonly digests = new Map<number, string>();
  positionsSaved: IndexedPosition[] = [];
  async exclusively<T>(work: (tx: Transaction) => Promise<T>): Promise<T | undefined> {
    return work({} as Transaction);
  }
  async positions(): Promise<IndexedPosition[]> {
    return this.positionsSaved;
  }
  async sourceDigests(_tx: Transaction, cases: readonly CaseKey[]): Promise<Map<number, string>> {
    return new Map(cases.flatMap((c) => (this.digests.has(c.caseId) ? [[c.caseId, this.digests.get(c.caseId)!] as const] : [])));
  }
  async save(_tx: Transaction, documents: readonly CaseDocument[], positions: readonly IndexedPosition[]): Promise<void> {
    this.saved.push([...documents]);
    for (const d of documents) this.digests.set(d.caseId, d.sourceDigest);
    this.positionsSaved = [...positions];
  }
  async saveUnlessRefused(): Promise<string | undefined> {
    throw new Error('not refused in these tests');
  }
}

/** One change of the case per pass, as the feed would give it. */
class OneChangePerPass extends CaseSearchFeed {
  readonly changes: CaseProps[] = [];
  async changedAfter(_positions: readonly WorkflowFeedPosition[]): Promise<ChangedCase[]> {
    const next = this.changes.shift();
    return next ? [{ case: next, xid: String(100 + this.changes.length) }] : [];
  }
  async replies(): Promise<CaseReply[]> {
    return [];
  }
}

class CountingMetrics extends SearchIndexMetrics {
  unchanged = 0;
  documentRefused(): void {}
  documentsUnchanged(count: number): void {
    this.unchanged += count;
  }
  heldBack(): void {}
}

function indexer(feed: CaseSearchFeed, store: SearchIndexStore, metrics: SearchIndexMetrics, messages: Map<number, SearchText[]> = new Map()) {
  const published = {
    everPublished: async () => [{ id: CASE.workflowId, organizationId: CASE.organizationId }],
    version: async () => ({ definition: { sensitive_data: false, attributes: {} } }),
  } as unknown as PublishedWorkflowsService;
  const source: CaseMessageSource = { textsOf: async () => messages };
  return new SearchIndexer(store, feed, published, [source], metrics, createLogger('silent'));
}

describe('SearchIndexer', () => {
  it('builds no document for a change that leaves the case\'s sources as they were, and moves its position all the same', async () => {
    const [feed, store, metrics] = [new OneChangePerPass(), new DocumentsInMemory(), new CountingMetrics()];
    const messages = new Map<number, SearchText[]>();
    const search = indexer(feed, store, metrics, messages);
    feed.changes.push(
      CASE,
      { ...CASE, status: 'Triage', assigneeId: 5, priority: 'high', updatedAt: new Date(1) },
      { ...CASE, attributes: '{"order":{"id":"ORD-99813"}}' },
      { ...CASE, attributes: '{"order":{"id":"ORD-99813"}}', workflowVersion: 2 },
    );

    for (let pass = 0; pass < 4; pass++) assert.equal(await search.pass(), 1);
    assert.deepEqual(store.saved.map((documents) => documents.length), [1, 0, 1, 1], 'the status change built none; the attribute and version changes did');
    assert.equal(metrics.unchanged, 1);
    assert.deepEqual(store.positionsSaved, [{ organizationId: 1, workflowId: 7, xid: '100', caseId: '42' }]);
    assert.ok(store.saved[2]![0]!.texts.some((t) => t.text === 'ORD-99813'));

    messages.set(CASE.id, [{ field: 'comment', pointer: '/comments/3', text: 'called the customer' }]);
    feed.changes.push({ ...CASE, attributes: '{"order":{"id":"ORD-99813"}}', workflowVersion: 2 });
    await search.pass();
    assert.deepEqual(store.saved.at(-1)!.map((d) => d.texts.at(-1)!.text), ['called the customer'], 'a new comment is a new source');
  });

  it('digests every source of a document, and nothing else of the case', () => {
    const messages: SearchText[] = [{ field: 'email', pointer: '/replies/9/text', text: 'thanks' }];
    const digest = sourceDigest(CASE, messages);
    assert.match(digest, /^[0-9a-f]{64}$/);
    const worked: CaseProps = { ...CASE, status: 'Closed', assigneeId: 3, teamId: 2, updatedAt: new Date(5) };
    assert.equal(sourceDigest(worked, messages), digest);
    const changes: [string, string][] = [
      ['subject', sourceDigest({ ...CASE, subject: 'Printer fixed' }, messages)],
      ['attributes', sourceDigest({ ...CASE, attributes: '{"order":{"id":"ORD-1"}}' }, messages)],
      ['workflow', sourceDigest({ ...CASE, workflowId: 8 }, messages)],
      ['version', sourceDigest({ ...CASE, workflowVersion: 2 }, messages)],
      ['source', sourceDigest({ ...CASE, source: 'Email' }, messages)],
      ['no message', sourceDigest(CASE, [])],
      ['message text', sourceDigest(CASE, [{ ...messages[0]!, text: 'thanks!' }])],
      ['message place', sourceDigest(CASE, [{ ...messages[0]!, pointer: '/replies/10/text' }])],
      ['texts moved between values', sourceDigest({ ...CASE, subject: 'Printer on', attributes: 'fire{"order":{"id":"ORD-99812"}}' }, messages)],
    ];
    for (const [what, changed] of changes) assert.notEqual(changed, digest, what);
    assert.equal(new Set(changes.map(([, d]) => d)).size, changes.length);
  });
});
