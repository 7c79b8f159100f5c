import { Inject, Injectable } from '@nestjs/common';
import { sha256 } from '../../../shared/crypto/sha256.js';
import { refusedDataState } from '../../../shared/database/database-errors.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { CaseSearchFeed, type ChangedCase } from '../../cases/application/case-search-feed.js';
import type { CaseProps } from '../../cases/domain/case.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import { type AttributeSearchRules, caseSearchTexts, reducedTexts, type SearchText } from '../domain/search-document.js';
import { CASE_MESSAGE_SOURCES, type CaseMessageSource } from './case-message-sources.js';
import { type CaseDocument, type IndexedPosition, SearchIndexMetrics, SearchIndexStore } from './search.ports.js';

/** Cases written per pass (one transaction). */
export const INDEX_BATCH = 500;
/**
 * How long a case's last change must be past before its document is built. A case that came
 * in by webhook or mail is most often changed again by its workflow's automation within a few
 * hundred milliseconds (the Open run's attributes and status); waiting this long builds one
 * document for both instead of two. With the loop's idle wait and a pass, a case is still
 * searchable well within the 2 s search.md allows.
 */
export const SETTLED_MS = 400;
/** How long the list of workflows is used before it is read again: a new workflow's first case waits at most this long more. */
const WORKFLOWS_REUSED_MS = 1_000;

/**
 * Keeps the search documents: follows every workflow's change feed (docs/change-feed.md) from
 * the positions it stored, and writes the document of every case changed since, with the
 * positions, in one transaction. So intake does no search work at all, a case is searchable
 * once its change committed and a pass ran (a pass every 200 ms when idle, docs/search.md),
 * and a crash loses nothing: the next pass starts from the stored positions. One indexer works
 * at a time across the instances (an advisory lock); the others' passes find it held and skip.
 *
 * A document Postgres refuses for its data (an unforeseen text or size) must not hold back every
 * later case of every organization: when the batch is refused so, the pass is run again case by
 * case, and a refused case's document is reduced to its subject (reducedTexts), logged and
 * counted, so the positions move past it.
 */
@Injectable()
export class SearchIndexer {
  private workflows?: { list: { id: number; organizationId: number }[]; readAt: number };

  constructor(
    private readonly store: SearchIndexStore,
    private readonly feed: CaseSearchFeed,
    private readonly published: PublishedWorkflowsService,
    @Inject(CASE_MESSAGE_SOURCES) private readonly sources: CaseMessageSource[],
    private readonly metrics: SearchIndexMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Indexes what changed since the last pass, at most INDEX_BATCH cases; how many it indexed. */
  async pass(): Promise<number> {
    try {
      return await this.index((tx, documents, positions) => this.store.save(tx, documents, positions));
    } catch (err) {
      if (refusedDataState(err) === undefined) throw err;
      // The batch's transaction is lost: the same changes are read again, in a new one.
      const refused: Refusal[] = [];
      const indexed = await this.index((tx, documents, positions) => this.saveOneByOne(tx, documents, positions, refused));
      // Told once stored (a pass failing after all runs again, and would tell them twice), never
      // with the text: it is a stranger's.
      for (const { document, sqlstate } of refused) {
        this.logger.warn({ caseId: document.caseId, organizationId: document.organizationId, sqlstate }, 'search indexer: document refused by Postgres, indexed by its subject only');
        this.metrics.documentRefused();
      }
      return indexed;
    }
  }

  private async index(save: (tx: Transaction, documents: CaseDocument[], positions: IndexedPosition[]) => Promise<void>): Promise<number> {
    const indexed = await this.store.exclusively(async (tx) => {
      const known = new Map((await this.store.positions(tx)).map((p) => [p.workflowId, p]));
      const from = (await this.everPublished()).map((w) => known.get(w.id) ?? { organizationId: w.organizationId, workflowId: w.id, xid: '0', caseId: '0' });
      const changed = await this.feed.changedAfter(from, INDEX_BATCH, SETTLED_MS);
      if (!changed.length) return 0;
      await save(tx, await this.changedDocuments(tx, changed.map((c) => c.case)), lastPositions(changed));
      return changed.length;
    });
    return indexed ?? 0;
  }

  /** Each document on its own; one Postgres refuses is stored reduced, and added to `refused`. */
  private async saveOneByOne(tx: Transaction, documents: readonly CaseDocument[], positions: readonly IndexedPosition[], refused: Refusal[]): Promise<void> {
    for (const document of documents) {
      const sqlstate = await this.store.saveUnlessRefused(tx, document);
      if (sqlstate === undefined) continue;
      await this.store.save(tx, [{ ...document, texts: reducedTexts(document.texts) }], []);
      refused.push({ document, sqlstate });
    }
    await this.store.save(tx, [], positions);
  }

  /**
   * The documents of the cases whose sources differ from what their stored documents were built
   * of; the others are counted, and their documents stay as they are.
   */
  private async changedDocuments(tx: Transaction, cases: readonly CaseProps[]): Promise<CaseDocument[]> {
    const [sourced, stored] = await Promise.all([
      Promise.all(this.sources.map((source) => source.textsOf(cases))),
      this.store.sourceDigests(tx, cases.map((c) => ({ organizationId: c.organizationId, caseId: c.id }))),
    ]);
    const documents: CaseDocument[] = [];
    for (const c of cases) {
      const messages: SearchText[] = sourced.flatMap((texts) => texts.get(c.id) ?? []);
      const digest = sourceDigest(c, messages);
      if (stored.get(c.id) === digest) continue;
      const searched = { subject: c.subject, attributes: c.attributes, cameByEmail: c.source === 'Email' };
      documents.push({ organizationId: c.organizationId, caseId: c.id, workflowId: c.workflowId, texts: caseSearchTexts(searched, await this.rules(c), messages), sourceDigest: digest });
    }
    this.metrics.documentsUnchanged(cases.length - documents.length);
    return documents;
  }

  /** What the case's workflow version says about searching its attributes. */
  private async rules(c: CaseProps): Promise<AttributeSearchRules> {
    const { definition } = await this.published.version(c.workflowId, c.workflowVersion);
    const searchable = new Map(Object.entries(definition.attributes).flatMap(([name, d]) => (d.searchable === undefined ? [] : [[name, d.searchable] as const])));
    return { sensitive: definition.sensitive_data, searchable };
  }

  private async everPublished(): Promise<{ id: number; organizationId: number }[]> {
    if (!this.workflows || Date.now() - this.workflows.readAt > WORKFLOWS_REUSED_MS) {
      this.workflows = { list: await this.published.everPublished(), readAt: Date.now() };
    }
    return this.workflows.list;
  }
}

/**
 * Names how documents are built: changed with caseSearchTexts' rules or the bounds, it makes every
 * case's next change build its document again, as no stored digest matches.
 */
const DOCUMENT_FORMAT = 1;

/**
 * SHA-256 (hex) of everything a case's document is built of: its workflow and version (the
 * version's attribute rules; a published version never changes), source, subject, attributes'
 * stored JSON text and its messages' texts, and DOCUMENT_FORMAT. Equal digests mean equal
 * documents, so the texts are built only when it changed: hashing the inputs costs a small part
 * of building them (parsing the attributes again, finding identifiers, serializing the batch).
 */
export function sourceDigest(c: Pick<CaseProps, 'workflowId' | 'workflowVersion' | 'source' | 'subject' | 'attributes'>, messages: readonly SearchText[]): string {
  const sources = [DOCUMENT_FORMAT, c.workflowId, c.workflowVersion, c.source, c.subject, c.attributes, messages.map((m) => [m.field, m.pointer, m.text])];
  return sha256(JSON.stringify(sources)).toString('hex');
}

/** A document Postgres refused, with the SQLSTATE it gave. */
interface Refusal {
  document: CaseDocument;
  sqlstate: string;
}

/** Each workflow's position after the last of its cases indexed (the feed gives each workflow's in order). */
function lastPositions(changed: readonly ChangedCase[]): IndexedPosition[] {
  const last = new Map<number, IndexedPosition>();
  for (const { case: c, xid } of changed) last.set(c.workflowId, { organizationId: c.organizationId, workflowId: c.workflowId, xid, caseId: String(c.id) });
  return [...last.values()];
}
