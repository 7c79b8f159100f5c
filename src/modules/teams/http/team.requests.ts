import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsInt, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { MAX_TEAM_MEMBERS, MAX_TEAM_NAME } from '../domain/team.js';

const NOT_BLANK = /\S/;
/** Validated whenever the key is sent: null is no name and no members (`@IsOptional` would let it through). */
const given = (key: keyof ChangeTeamRequest) => ValidateIf((body: ChangeTeamRequest) => body[key] !== undefined);

export class CreateTeamRequest {
  @IsString() @MaxLength(MAX_TEAM_NAME) @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @ApiProperty({ minLength: 1, maxLength: MAX_TEAM_NAME, description: 'Unique in the organization (whatever the case of its letters).' })
  name: string;

  @IsArray() @ArrayMaxSize(MAX_TEAM_MEMBERS) @ArrayUnique() @IsInt({ each: true }) @Min(1, { each: true }) @Max(Number.MAX_SAFE_INTEGER, { each: true })
  @ApiProperty({ type: 'integer', isArray: true, minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'User ids: each an active user of the organization with a role of `agent` or stronger.' })
  member_ids: number[];
}

export class ChangeTeamRequest {
  @given('name') @IsString() @MaxLength(MAX_TEAM_NAME) @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @ApiPropertyOptional({ minLength: 1, maxLength: MAX_TEAM_NAME })
  name?: string;

  @given('member_ids') @IsArray() @ArrayMaxSize(MAX_TEAM_MEMBERS) @ArrayUnique() @IsInt({ each: true }) @Min(1, { each: true }) @Max(Number.MAX_SAFE_INTEGER, { each: true })
  @ApiPropertyOptional({ type: 'integer', isArray: true, minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The members, all of them.' })
  member_ids?: number[];
}
