import { AppError } from '../../../shared/errors/app-error.js';

export const LINK_TYPES = ['relates', 'duplicates', 'blocks'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

/** Links a case takes part in, whichever way they point: a case page lists them all at once. */
export const MAX_LINKS_PER_CASE = 500;

/** A stored link: `caseId` relates to, duplicates or blocks `otherCaseId`. */
export interface CaseLink {
  id: number;
  caseId: number;
  otherCaseId: number;
  type: LinkType;
  createdAt: Date;
}

/** `outward`: the case looked from relates to, duplicates or blocks the other; `inward`: the other way. */
export type LinkDirection = 'outward' | 'inward';

/** A link as one of its two cases sees it. */
export interface LinkSeen {
  id: number;
  type: LinkType;
  direction: LinkDirection;
  otherCaseId: number;
  createdAt: Date;
}

export function seenFrom(link: CaseLink, caseId: number): LinkSeen {
  const outward = link.caseId === caseId;
  return { id: link.id, type: link.type, direction: outward ? 'outward' : 'inward', otherCaseId: outward ? link.otherCaseId : link.caseId, createdAt: link.createdAt };
}

/** The timeline row's fields of a link on one of its cases (`link_type`: a row's own `type` is `linked` / `unlinked`). */
export function timelineData(link: CaseLink, caseId: number): Record<string, unknown> {
  const seen = seenFrom(link, caseId);
  return { link_id: seen.id, case_id: seen.otherCaseId, link_type: seen.type, direction: seen.direction };
}

/**
 * What a new link between `caseId` and `otherCaseId` of `type` comes to, given the link of that
 * type the pair already has: one per pair and type, so the same link again is the existing one
 * (a `relates` link points both ways), and a `duplicates` or `blocks` link the other way round
 * contradicts it.
 */
export function sameLink(existing: CaseLink, caseId: number): CaseLink {
  if (existing.type !== 'relates' && existing.caseId !== caseId) {
    throw new LinkRefusedError(`case ${existing.caseId} already ${existing.type === 'blocks' ? 'blocks' : 'duplicates'} case ${existing.otherCaseId}: remove that link first`);
  }
  return existing;
}

/** A link the rules refuse; `atFault` names the body field when it is the one at fault. */
export class LinkRefusedError extends AppError {
  readonly code = 'request.invalid';
  constructor(reason: string, atFault?: string) {
    super(reason);
    if (atFault) this.details.validation_errors = [{ path: `/${atFault}`, error: reason }];
  }
}
