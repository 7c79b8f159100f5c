import type { Transaction } from '../../../shared/database/transaction.js';
import type { CaseView, CaseViewChange, CaseViewDraft } from '../domain/case-view.js';

/** `case_views`, bound to the module's infrastructure. */
export abstract class CaseViewStore {
  abstract create(tx: Transaction, draft: CaseViewDraft): Promise<CaseView>;
  /** The person's own views and the organization's shared ones (`ownerId` null: the shared ones only), oldest first. */
  abstract visible(organizationId: number, ownerId: number | null): Promise<CaseView[]>;
  /** Locked for the transaction's change. */
  abstract find(tx: Transaction, organizationId: number, id: number): Promise<CaseView | null>;
  abstract update(tx: Transaction, organizationId: number, id: number, change: CaseViewChange): Promise<CaseView>;
  abstract delete(tx: Transaction, organizationId: number, id: number): Promise<void>;
  /** How many views the person owns (private or shared), and how many of the organization's are shared. */
  abstract counts(tx: Transaction, organizationId: number, ownerId: number | null): Promise<{ own: number; shared: number }>;
}
