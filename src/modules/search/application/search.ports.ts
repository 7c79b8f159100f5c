import type { Transaction } from '../../../shared/database/transaction.js';
import type { SearchScope, SearchTier } from '../../cases/domain/case-text-search.js';
import type { SearchText } from '../domain/search-document.js';
import type { SearchQueries, TermInput, TermQuery } from '../domain/term-queries.js';

/** What a case's document is built of. */
export interface CaseDocument {
  organizationId: number;
  caseId: number;
  workflowId: number;
  texts: SearchText[];
  /** Of what the texts were built from (the indexer's sourceDigest), hex: a later change with the same one needs no new document. */
  sourceDigest: string;
}

/** A case, by its document's key. */
export interface CaseKey {
  organizationId: number;
  caseId: number;
}

/** The indexer's place in one workflow's change feed. */
export interface IndexedPosition {
  organizationId: number;
  workflowId: number;
  xid: string;
  caseId: string;
}

/** The documents and the indexer's positions (the search module's tables). */
export abstract class SearchIndexStore {
  /** Runs `work` in a transaction unless another indexer is at work (then undefined): one indexer at a time. */
  abstract exclusively<T>(work: (tx: Transaction) => Promise<T>): Promise<T | undefined>;
  abstract positions(tx: Transaction): Promise<IndexedPosition[]>;
  /** The source digests stored with these cases' documents, by case id; a case without a document, or whose document has none, is absent. */
  abstract sourceDigests(tx: Transaction, cases: readonly CaseKey[]): Promise<Map<number, string>>;
  /** Writes the documents (replacing a case's earlier one) and moves the positions, in `tx`. */
  abstract save(tx: Transaction, documents: readonly CaseDocument[], positions: readonly IndexedPosition[]): Promise<void>;
  /**
   * Writes one document in `tx` unless Postgres refuses it for its data: then undoes it alone
   * (`tx` goes on) and answers the SQLSTATE. Any other failure fails `tx`.
   */
  abstract saveUnlessRefused(tx: Transaction, document: CaseDocument): Promise<string | undefined>;
}

/** What an operator watches of the indexer. */
export abstract class SearchIndexMetrics {
  /** A case's document was refused by Postgres and stored reduced to its subject. */
  abstract documentRefused(): void;
  /** Changed cases whose document was left as stored, its sources being those it was built of. */
  abstract documentsUnchanged(count: number): void;
  /** Whether the indexer now paces its passes because the workers are behind on automation (SearchIndexerLoop). */
  abstract heldBack(held: boolean): void;
}

/** Where a match lies, as the search reads it from a page's documents. */
export interface FoundMatch {
  caseId: number;
  field: SearchText['field'];
  pointer: string;
  snippet: string;
}

/** The read side of the documents. */
export abstract class SearchReads {
  /** Each term's tsquery, made by Postgres from the term (see TermInput). */
  abstract termQueries(inputs: readonly TermInput[]): Promise<Omit<TermQuery, 'exclude'>[]>;
  /** The relevance tiers of a search of the organization's cases in `scope`, highest first, as conditions on the case lists' statement. */
  abstract tiers(organizationId: number, queries: SearchQueries, scope: SearchScope): SearchTier[];
  /** The first value of each case (in relevance order) that holds a positive term, with its snippet. */
  abstract matches(organizationId: number, caseIds: readonly number[], queries: SearchQueries, scope: SearchScope): Promise<FoundMatch[]>;
}
