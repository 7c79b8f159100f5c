import { IsIn, IsOptional, Matches } from 'class-validator';

const POSITIVE_INTEGER = /^[1-9][0-9]{0,15}$/;

/** Query string of the admin case list; every value arrives as text. */
export class ListCasesRequest {
  @IsOptional() @Matches(POSITIVE_INTEGER, { message: 'workflow_id must be a positive integer' })
  workflow_id?: string;

  @IsOptional() @Matches(/^.{1,200}$/s, { message: 'status must be 1 to 200 characters' })
  status?: string;

  @IsOptional() @IsIn(['live', 'test'])
  mode?: string;

  @IsOptional() @IsIn(['API', 'Webhook'])
  source?: string;

  @IsOptional() @Matches(/^([1-9][0-9]?|100)$/, { message: 'limit must be an integer from 1 to 100' })
  limit?: string;

  /** The `next_cursor` of the previous page. */
  @IsOptional() @Matches(POSITIVE_INTEGER, { message: 'cursor must be a next_cursor value' })
  cursor?: string;
}
