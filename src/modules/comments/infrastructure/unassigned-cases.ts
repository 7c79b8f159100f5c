import { Injectable } from '@nestjs/common';
import { CaseAssignees } from '../application/comment-ports.js';

/**
 * CaseAssignees while the cases module keeps no assignee (casework.md section 2 adds
 * `cases.assignee_id`): bind CaseAssignees to the cases module's reader instead once it does.
 */
@Injectable()
export class UnassignedCases extends CaseAssignees {
  assigneeOf(): Promise<number | null> {
    return Promise.resolve(null);
  }
}
