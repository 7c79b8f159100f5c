import { Injectable } from '@nestjs/common';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { CaseQueriesService } from '../../cases/application/case-queries.service.js';
import type { Actor, Case, CaseProps } from '../../cases/domain/case.js';
import { CaseRepository } from '../../cases/domain/case.repository.js';
import { type CaseLink, LinkRefusedError, type LinkSeen, type LinkType, MAX_LINKS_PER_CASE, sameLink, seenFrom, timelineData } from '../domain/case-link.js';
import { CaseLinkStore } from './case-link-store.js';

/** A link as one of its cases shows it, with the other case as it stands. */
export interface LinkView extends LinkSeen {
  otherCase: CaseProps;
}

/**
 * Links between cases of an organization (casework.md, section 6). A change locks both cases
 * (in id order, see CaseRepository.lock), so the cap on a case's links and the one link per
 * pair and type hold under concurrent requests, and records itself on both timelines and in
 * the audit log in the same transaction.
 */
@Injectable()
export class CaseLinksService {
  constructor(
    private readonly store: CaseLinkStore,
    private readonly cases: CaseRepository,
    private readonly queries: CaseQueriesService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  /** Links `caseId` to `otherCaseId`; the same link again answers the existing one (`created` false). */
  async link(by: ChangeAuthor, actor: Actor, organizationId: number, caseId: number, otherCaseId: number, type: LinkType): Promise<{ link: LinkView; created: boolean }> {
    if (caseId === otherCaseId) throw new LinkRefusedError('a case cannot be linked to itself', 'case_id');
    const { link, created } = await this.transactions.run(async (tx) => {
      const [subject, other] = await this.locked(tx, organizationId, caseId, otherCaseId);
      const existing = await this.store.between(tx, organizationId, caseId, otherCaseId, type);
      if (existing) return { link: sameLink(existing, caseId), created: false };
      const counts = await this.store.counts(tx, organizationId, [caseId, otherCaseId]);
      for (const id of [caseId, otherCaseId]) {
        if ((counts.get(id) ?? 0) >= MAX_LINKS_PER_CASE) throw new LinkRefusedError(`case ${id} has ${MAX_LINKS_PER_CASE} links, as many as a case takes`);
      }
      const stored = await this.store.insert(tx, organizationId, { caseId, otherCaseId, type });
      await this.record(tx, actor, 'linked', stored, subject, other);
      await this.audit.record(tx, { organizationId, by, action: 'case.linked', target: { type: 'case', id: String(caseId) }, summary: { link_id: stored.id, case_id: otherCaseId, type } });
      return { link: stored, created: true };
    });
    const [view] = await this.views(organizationId, caseId, [link]);
    if (!view) throw new NotFoundError('case');
    return { link: view, created };
  }

  /** The case's links, both ways, oldest first. */
  async list(organizationId: number, caseId: number): Promise<LinkView[]> {
    await this.queries.get(organizationId, caseId);
    return this.views(organizationId, caseId, await this.store.of(organizationId, caseId));
  }

  /** Removes a link of the case (404 for a link of other cases). */
  async unlink(by: ChangeAuthor, actor: Actor, organizationId: number, caseId: number, linkId: number): Promise<void> {
    const found = await this.store.find(organizationId, linkId);
    if (!found || (found.caseId !== caseId && found.otherCaseId !== caseId)) throw new NotFoundError('link');
    await this.transactions.run(async (tx) => {
      const [subject, other] = await this.locked(tx, organizationId, found.caseId, found.otherCaseId);
      const deleted = await this.store.delete(tx, organizationId, linkId);
      if (!deleted) throw new NotFoundError('link');
      await this.record(tx, actor, 'unlinked', deleted, subject, other);
      await this.audit.record(tx, { organizationId, by, action: 'case.unlinked', target: { type: 'case', id: String(caseId) }, summary: { link_id: linkId, case_id: seenFrom(deleted, caseId).otherCaseId, type: deleted.type } });
    });
  }

  private async locked(tx: Transaction, organizationId: number, caseId: number, otherCaseId: number): Promise<[Case, Case]> {
    const locked = await this.cases.lock(tx, organizationId, [caseId, otherCaseId]);
    const subject = locked.get(caseId);
    const other = locked.get(otherCaseId);
    if (!subject || !other) throw new NotFoundError('case');
    return [subject, other];
  }

  /** The change on both cases' timelines, each seeing the link from its side. */
  private async record(tx: Transaction, actor: Actor, note: 'linked' | 'unlinked', link: CaseLink, ...cases: Case[]): Promise<void> {
    for (const subject of cases) {
      subject.note(note, actor, timelineData(link, subject.id));
      await this.cases.save(tx, subject);
    }
  }

  private async views(organizationId: number, caseId: number, links: CaseLink[]): Promise<LinkView[]> {
    const seen = links.map((link) => seenFrom(link, caseId));
    const others = await this.queries.some(organizationId, [...new Set(seen.map((link) => link.otherCaseId))]);
    // A case the retention purge is deleting goes with its links; until then it is left out.
    return seen.flatMap((link) => {
      const otherCase = others.get(link.otherCaseId);
      return otherCase ? [{ ...link, otherCase }] : [];
    });
  }
}
