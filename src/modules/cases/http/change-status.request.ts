import { IsWellFormedText } from '../../../shared/http/well-formed-text.js';
import { IsString, Length } from 'class-validator';

/** `status` is the only accepted key. */
export class ChangeStatusRequest {
  @IsString() @IsWellFormedText() @Length(1, 200)
  status: string;
}
