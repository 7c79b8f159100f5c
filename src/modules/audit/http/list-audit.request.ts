import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { AUDIT_CURSOR_TEXT } from '../application/audit-entries.service.js';

const NAME = '[a-z][a-z0-9_]{0,63}';
/** The text of an integer from 1 to 200 (documented as that integer: a pattern is for strings only). */
const PAGE_SIZE = /^([1-9][0-9]?|1[0-9][0-9]|200)$/;

export class ListAuditRequest {
  @IsOptional() @Matches(AUDIT_CURSOR_TEXT, { message: 'after must be a next_cursor of this list' })
  @ApiPropertyOptional({ type: 'string', description: 'The `next_cursor` of an earlier answer: the entries recorded since, oldest first. Without it, the newest entries, newest first.' })
  after?: string;

  @IsOptional() @Matches(PAGE_SIZE, { message: 'limit must be an integer from 1 to 200' })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'How many entries.' })
  limit?: string;

  @IsOptional() @Matches(/^(user|token|operator):[A-Za-z0-9_-]{1,64}$/, { message: 'actor must be type:id, type one of user, token, operator' })
  @ApiPropertyOptional({ type: 'string', description: 'Only the changes of one actor, as `type:id` (`token:12`, `operator:operator`).' })
  actor?: string;

  @IsOptional() @Matches(new RegExp(`^${NAME}\\.${NAME}$`), { message: 'action must be an action name such as workflow.published' })
  @ApiPropertyOptional({ type: 'string', description: 'Only one action, such as `workflow.published`.' })
  action?: string;

  @IsOptional() @Matches(new RegExp(`^${NAME}(:[A-Za-z0-9_-]{1,64})?$`), { message: 'target must be a type or type:id' })
  @ApiPropertyOptional({ type: 'string', description: 'Only changes of one kind of target (`workflow`) or one target (`workflow:7`, `secret:CRM_KEY`).' })
  target?: string;
}
