import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsObject, IsString, ValidateIf } from 'class-validator';
import { NUMBER_RULE } from '../../../shared/http/openapi-schema.js';
import { IsWellFormedText } from '../../../shared/http/well-formed-text.js';
import { ON_SLA_KINDS, type OnSlaKind } from '../../workflows/domain/on-sla-steps.js';

const present = (key: keyof TestRunRequestBody) => ValidateIf((body: TestRunRequestBody) => body[key] !== undefined);

@ApiSchema({ description: 'Only these keys are accepted; any other key is a 422. Every key may be left out.' })
export class TestRunRequestBody {
  @present('definition') @IsIn(['draft', 'published'])
  @ApiPropertyOptional({ enum: ['draft', 'published'], default: 'draft', description: 'Which definition runs: the draft, or the latest published version (422 `workflow.not_published` while the workflow is unpublished).' })
  definition?: 'draft' | 'published';

  @present('status') @IsString() @IsWellFormedText()
  @ApiPropertyOptional({ type: 'string', default: 'Open', description: 'The status the case is in when the run starts: its automation runs first. A declared status other than `Error`.' })
  status?: string;

  @present('on_sla') @IsIn(ON_SLA_KINDS)
  @ApiPropertyOptional({ enum: ON_SLA_KINDS, description: 'Runs the definition\'s `on_sla` steps of that kind (sla.md section 3) first, as a warning or breach of the case\'s SLA clock would, on a case in `status`, instead of that status\'s automation.' })
  on_sla?: OnSlaKind;

  // Present means it must be an object: null, arrays and strings are refused, not defaulted.
  @present('attributes') @IsObject({ message: 'attributes must be a JSON object' })
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, default: {}, description: `The case's attributes, validated against the chosen definition's schema as a new case's are. ${NUMBER_RULE}` })
  attributes?: Record<string, unknown>;

  @present('send_requests') @IsBoolean()
  @ApiPropertyOptional({ type: 'boolean', default: false, description: 'Whether `http_request` steps (and extension steps that call out) really send, through the guarded client and with the header `X-Case-Intake-Test-Run: true`.' })
  send_requests?: boolean;
}
