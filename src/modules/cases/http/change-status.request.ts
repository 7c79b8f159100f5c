import { IsWellFormedText } from '../../../shared/http/well-formed-text.js';
import { ApiSchema } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

/** `status` is the only accepted key. */
@ApiSchema({ description: '`status` is the only accepted key.' })
export class ChangeStatusRequest {
  /** A status declared on the case's workflow, other than `Error`. */
  @IsString() @IsWellFormedText() @Length(1, 200)
  status: string;
}
