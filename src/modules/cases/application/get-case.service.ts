import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import type { Principal } from '../../tokens/domain/principal.js';
import type { CaseProps } from '../domain/case.js';
import { CaseRepository } from '../domain/case.repository.js';

@Injectable()
export class GetCaseService {
  constructor(private readonly cases: CaseRepository) {}

  /** One query: an unknown workflow, another organization's case or a case of another workflow are all 404. */
  async execute(caller: Principal, workflowId: number, caseId: number): Promise<CaseProps> {
    const found = await this.cases.find(caller.organizationId, workflowId, caseId);
    if (!found) throw new NotFoundError('case');
    return found;
  }
}
