import { IsString, Length } from 'class-validator';

export class CreateOrganizationRequest {
  @IsString() @Length(1, 200)
  name: string;
}
