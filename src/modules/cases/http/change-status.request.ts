import { IsString, Length } from 'class-validator';

/** `status` is the only accepted key. */
export class ChangeStatusRequest {
  @IsString() @Length(1, 200)
  status: string;
}
