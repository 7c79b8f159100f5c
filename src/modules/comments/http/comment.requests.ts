import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { MAX_BODY_BYTES, VISIBILITIES, type Visibility } from '../domain/comment.js';

export class CreateCommentRequest {
  @IsString()
  @ApiProperty({ type: 'string', minLength: 1, description: `The text, at most ${MAX_BODY_BYTES} bytes in UTF-8. In an internal note, \`@<email>\` of a person of the organization makes them a watcher and notifies them.` })
  body: string;

  @IsIn(VISIBILITIES)
  @ApiProperty({ enum: VISIBILITIES, description: '`internal`: the organization\'s people only. `public`: also mailed to the requester.' })
  visibility: Visibility;
}

const PAGE_SIZE = /^([1-9][0-9]?|100)$/;
const COMMENT_ID = /^(0|[1-9][0-9]{0,15})$/;

export class ListCommentsRequest {
  @IsOptional() @Matches(COMMENT_ID, { message: 'after must be a comment id' })
  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'The id of the last comment of the previous page (its `next_cursor`).' })
  after?: string;

  @IsOptional() @Matches(PAGE_SIZE, { message: 'limit must be an integer from 1 to 100' })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50, description: 'How many comments.' })
  limit?: string;
}

export class NotificationPreferencesRequest {
  @IsBoolean() @ApiProperty({ type: 'boolean' }) assigned: boolean;
  @IsBoolean() @ApiProperty({ type: 'boolean' }) mentioned: boolean;
  @IsBoolean() @ApiProperty({ type: 'boolean' }) watched: boolean;
}
