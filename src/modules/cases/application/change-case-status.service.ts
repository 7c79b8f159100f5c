import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import type { TokenPrincipal } from '../../tokens/domain/principal.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { CaseProps } from '../domain/case.js';
import { CaseRepository } from '../domain/case.repository.js';

@Injectable()
export class ChangeCaseStatusService {
  constructor(private readonly workflows: PublishedWorkflowsService, private readonly cases: CaseRepository) {}

  /**
   * Moves the case under a row lock, checked against the workflow version the case runs on.
   * That version is loaded before the lock is taken: a transaction waiting for a second pool
   * connection while others queue on its lock could starve the pool.
   */
  async execute(caller: TokenPrincipal, workflowId: number, caseId: number, status: string): Promise<CaseProps> {
    const found = await this.cases.find(caller.organizationId, workflowId, caseId);
    if (!found) throw new NotFoundError('case');
    const version = await this.workflows.version(found.workflowId, found.workflowVersion);
    const changed = await this.cases.change(caller.organizationId, workflowId, caseId, (subject) => {
      subject.moveTo(status, version, { kind: 'api_token', tokenId: caller.tokenId });
    });
    if (!changed) throw new NotFoundError('case');
    return changed;
  }
}
