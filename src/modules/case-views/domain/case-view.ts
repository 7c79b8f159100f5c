/** A saved view of the case list: its filters (the list's query parameters, as text) and columns. */
export interface CaseView {
  id: number;
  organizationId: number;
  /** The person who saved it; null for one an admin token saved (always shared). */
  ownerId: number | null;
  name: string;
  filters: Record<string, string>;
  columns: string[];
  shared: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type CaseViewDraft = Pick<CaseView, 'organizationId' | 'ownerId' | 'name' | 'filters' | 'columns' | 'shared'>;
export type CaseViewChange = Partial<Pick<CaseView, 'name' | 'filters' | 'columns' | 'shared'>>;

/** Views one person may keep, and shared views one organization may keep: each view's count is read whenever the list of views is. */
export const MAX_OWN_VIEWS = 50;
export const MAX_SHARED_VIEWS = 50;
