import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { object, wrapped, type Schema } from '../../../shared/http/openapi-schema.js';
import { roleAllows } from '../../../shared/http/roles.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import { roleOf, type Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { TestRunService } from '../application/test-run.service.js';
import { TestRunRequestBody } from './test-run.request.js';

const SHOWN_REQUEST = object({
  method: { type: 'string' },
  url: { type: 'string' },
  headers: { type: 'object', additionalProperties: { type: 'string' } },
  body: { description: 'The body as sent: JSON when it is JSON, text otherwise.' },
}, ['body'], 'The request as it would go out, every secret value replaced by `[secret NAME]`.');

const TRACED_STEP: Schema = {
  type: 'object',
  description: 'A step the run executed, in order. Besides these keys, by outcome: `changes` (`change`, and a sent `http_request` that saved its answer), `to` (`move`, `close`, and `case_outcome` for `close`), `seconds` (`wait`), `error` (`fail`, `error`), `request` (a step that called out) and `response` (`{status, body}`, the body cut to 4,096 characters, when sent and answered); `followed: false` on the move that hit the limit.',
  properties: {
    path: { type: 'string', description: 'JSON Pointer of the step in the definition, e.g. `/automations/Open/0/then/1`.' },
    type: { type: 'string', description: 'The step type, or `if`.' },
    outcome: { type: 'string', enum: ['change', 'move', 'then', 'else', 'wait', 'close', 'fail', 'not_sent', 'sent', 'error'] },
    duration_ms: { type: 'integer', minimum: 0 },
    changes: { type: 'object', additionalProperties: true },
    to: { type: 'string' },
    case_outcome: { type: 'string' },
    seconds: { type: 'number' },
    error: { type: 'string' },
    followed: { type: 'boolean' },
    request: SHOWN_REQUEST,
    response: object({ status: { type: 'integer' }, body: { type: 'string' } }),
  },
  required: ['path', 'type', 'outcome', 'duration_ms'],
  additionalProperties: false,
};

const TEST_RUN = object({
  steps: { type: 'array', items: TRACED_STEP },
  final: object({
    status: { type: 'string' },
    outcome: { type: ['string', 'null'] },
    attributes: { type: 'object', additionalProperties: true },
  }, [], 'The case as the run would leave it (a failed run parks it in `Error`).'),
  stopped_because: { type: 'string', enum: ['finished', 'closed', 'failed', 'error', 'move_limit', 'budget'] },
});

/** Test runs of a workflow's automation: the builder's way to try a definition before publishing it. */
@Controller('api/admin/v1/workflows')
@RequiresRole('editor')
@ApiTags('Workflows')
@ApiSecurity('adminToken')
export class TestRunsController {
  constructor(private readonly testRuns: TestRunService) {}

  @Post(':workflowId/test_runs')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'createWorkflowTestRun',
    summary: 'Test-run a workflow\'s automation',
    description: 'Runs the automation of the draft (or the published version), or with `on_sla` its `on_sla` steps of that kind, on a case that exists only for the run, with the engine\'s own step code, and reports every step: nothing is stored (no case, run, timeline row, usage, event or delivery). Status moves are followed into the next status\'s automation, up to 20; a `wait` is noted and skipped; a failing step ends the run as a real run would (`stopped_because: "error"`, the case in `Error`); `fail` steps end it with `failed`. `http_request` steps are shown with secrets hidden and sent only with `send_requests`, with the header `X-Case-Intake-Test-Run: true` (a header of the step\'s own by that name, in any case, is dropped); a test run makes one attempt where a real run would retry. Secrets are read only for an `admin`, an `owner` or an admin token: an `editor`\'s run gives every step `[secret NAME]` in place of the value, also in what it sends. A run that sends is audited (`workflow.test_run_sent`). A run sends at most 20 requests and lasts at most 30 s: past either it stops with `stopped_because: "budget"` and the step that ran out shows why. The case is a `test`-mode case with id 0 and subject `Test run`.',
    success: { status: 200, description: 'The trace of the run.', schema: wrapped('test_run', TEST_RUN) },
    errors: {
      404: 'The workflow does not exist or belongs to another organization.',
      422: 'Nothing ran: a key other than those documented, or one of the wrong type; `status` not declared or `Error`; `attributes_validation_failed` with `validation_errors`, as a new case would get; `workflow_definition_invalid` with `validation_errors` pointing into a draft that today\'s rules refuse; `definition: "published"` while the workflow is not published.',
    },
  })
  async create(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Param('workflowId', new IdParamPipe('workflow')) workflowId: number, @Body() body: TestRunRequestBody) {
    const role = roleOf(caller);
    const testRun = await this.testRuns.run(by, caller.organizationId, workflowId, {
      definition: body.definition ?? 'draft',
      status: body.status ?? 'Open',
      ...(body.on_sla ? { on_sla: body.on_sla } : {}),
      attributes: body.attributes ?? {},
      send_requests: body.send_requests ?? false,
      readSecrets: role !== undefined && roleAllows(role, 'admin'),
    });
    return { test_run: testRun };
  }
}
