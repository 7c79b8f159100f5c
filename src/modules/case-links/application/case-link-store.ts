import type { Transaction } from '../../../shared/database/transaction.js';
import type { CaseLink, LinkType } from '../domain/case-link.js';

/** The `case_links` table. Changes run in the caller's transaction, with both cases locked. */
export abstract class CaseLinkStore {
  /** The pair's link of `type`, whichever way it points. */
  abstract between(tx: Transaction, organizationId: number, caseId: number, otherCaseId: number, type: LinkType): Promise<CaseLink | null>;
  /** How many links each of the cases takes part in. */
  abstract counts(tx: Transaction, organizationId: number, caseIds: readonly number[]): Promise<Map<number, number>>;
  abstract insert(tx: Transaction, organizationId: number, link: Omit<CaseLink, 'id' | 'createdAt'>): Promise<CaseLink>;
  abstract find(organizationId: number, linkId: number): Promise<CaseLink | null>;
  /** Deletes the link; null when it was gone already. */
  abstract delete(tx: Transaction, organizationId: number, linkId: number): Promise<CaseLink | null>;
  /** The case's links, both ways, oldest first. */
  abstract of(organizationId: number, caseId: number): Promise<CaseLink[]>;
}
