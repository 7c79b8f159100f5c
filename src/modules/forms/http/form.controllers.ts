import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED, CHANGE_NOT_SAVED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import { RequiresOperatorToken } from '../../tokens/http/operator-token.check.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { RequestFormsService } from '../application/request-forms.service.js';

const WorkflowId = () => Param('workflowId', new IdParamPipe('workflow'));
const formAnswer = (status: 200 | 201, description: string) => ({ status, description, schema: wrapped('form', schemaRef('RequestForm')) });
const view = (url: string) => ({ form: { url } });

@Controller('api/admin/v1/workflows')
@RequiresRole('admin')
@ApiTags('Workflows')
@ApiSecurity('adminToken')
export class RequestFormController {
  constructor(private readonly forms: RequestFormsService) {}

  @Post(':workflowId/form')
  @ApiEndpoint({
    operationId: 'generateRequestForm',
    summary: 'Generate the workflow\'s request form URL',
    description: `Generates the secret URL of a ticketing workflow's hosted request form once, \`<PUBLIC_BASE_URL>/forms/<secret>\`: calling again answers 201 with the same URL. The page there is a form drawn from the published version's attributes; every valid post becomes a live case with \`source_type\` \`Form\`. The URL belongs to the workflow, not to a version; its secret is stored hashed and encrypted. ${BODY_IGNORED}`,
    success: formAnswer(201, 'The form URL.'),
    errors: { 404: 'The workflow does not exist or belongs to another organization.', 422: 'The workflow is not published, or its case source is not `ticketing`.' },
  })
  async generate(@Principal() caller: Caller, @ChangeAuthor() by: Author, @WorkflowId() id: number) {
    return view(await this.forms.generate(by, caller.organizationId, id));
  }

  @Get(':workflowId/form')
  @ApiEndpoint({
    operationId: 'getRequestForm',
    summary: 'Get the workflow\'s request form URL',
    description: 'The URL generated earlier (as rotated by the operator, if it was).',
    success: formAnswer(200, 'The form URL.'),
    errors: { 404: 'The workflow does not exist, belongs to another organization, or has no form URL yet.' },
  })
  async get(@Principal() caller: Caller, @WorkflowId() id: number) {
    return view(await this.forms.get(caller.organizationId, id));
  }
}

@Controller('api/operator/v1/workflows')
@RequiresOperatorToken()
@ApiTags('Operator')
@ApiSecurity('operatorToken')
export class OperatorRequestFormController {
  constructor(private readonly forms: RequestFormsService) {}

  @Post(':workflowId/form/rotate')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'rotateRequestForm',
    summary: 'Rotate a workflow\'s request form URL',
    description: `Replaces the form URL of any organization's workflow: the old one (the form, its posts and its confirmation pages) answers 404 at once on this instance and within 1 s on every other one. ${BODY_IGNORED}`,
    success: formAnswer(200, 'The new form URL.'),
    errors: { 404: 'The operator API is disabled (no `OPERATOR_TOKEN`), or the workflow does not exist or has no form URL yet.', 503: CHANGE_NOT_SAVED },
  })
  async rotate(@ChangeAuthor() by: Author, @Param('workflowId', new IdParamPipe('workflow')) id: number) {
    return view(await this.forms.rotate(by, id));
  }
}
