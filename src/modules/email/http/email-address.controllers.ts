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
import { EmailAddressesService } from '../application/email-addresses.service.js';

const WorkflowId = () => Param('workflowId', new IdParamPipe('workflow'));
const addressAnswer = (status: 200 | 201, description: string) => ({ status, description, schema: wrapped('email_address', schemaRef('EmailAddress')) });
const view = (address: string) => ({ email_address: { address } });

@Controller('api/admin/v1/workflows')
@RequiresRole('admin')
@ApiTags('Workflows')
@ApiSecurity('adminToken')
export class EmailAddressController {
  constructor(private readonly addresses: EmailAddressesService) {}

  @Post(':workflowId/email_address')
  @ApiEndpoint({
    operationId: 'generateEmailAddress',
    summary: 'Generate the workflow\'s inbound email address',
    description: `Generates the secret address of an email workflow once, \`<secret>@<INBOUND_EMAIL_DOMAIN>\`: calling again answers 201 with the same address. Every message the service's SMTP listener accepts for it becomes a case (or, for a reply, is added to its case). The address belongs to the workflow, not to a version; its secret part is stored hashed and encrypted. ${BODY_IGNORED}`,
    success: addressAnswer(201, 'The inbound address.'),
    errors: { 404: 'The workflow does not exist or belongs to another organization.', 422: 'The workflow is not published, or its case source is not `email`.' },
  })
  async generate(@Principal() caller: Caller, @ChangeAuthor() by: Author, @WorkflowId() id: number) {
    return view(await this.addresses.generate(by, caller.organizationId, id));
  }

  @Get(':workflowId/email_address')
  @ApiEndpoint({
    operationId: 'getEmailAddress',
    summary: 'Get the workflow\'s inbound email address',
    description: 'The address generated earlier (as rotated by the operator, if it was).',
    success: addressAnswer(200, 'The inbound address.'),
    errors: { 404: 'The workflow does not exist, belongs to another organization, or has no email address yet.' },
  })
  async get(@Principal() caller: Caller, @WorkflowId() id: number) {
    return view(await this.addresses.get(caller.organizationId, id));
  }
}

@Controller('api/operator/v1/workflows')
@RequiresOperatorToken()
@ApiTags('Operator')
@ApiSecurity('operatorToken')
export class OperatorEmailAddressController {
  constructor(private readonly addresses: EmailAddressesService) {}

  @Post(':workflowId/email_address/rotate')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'rotateEmailAddress',
    summary: 'Rotate a workflow\'s inbound email address',
    description: `Replaces the inbound address of any organization's workflow: the old one is refused at \`RCPT TO\` (\`550 5.1.1\`) at once on this instance and within 1 s on every other one. ${BODY_IGNORED}`,
    success: addressAnswer(200, 'The new inbound address.'),
    errors: { 404: 'The operator API is disabled (no `OPERATOR_TOKEN`), or the workflow does not exist or has no email address yet.', 503: CHANGE_NOT_SAVED },
  })
  async rotate(@ChangeAuthor() by: Author, @Param('workflowId', new IdParamPipe('workflow')) id: number) {
    return view(await this.addresses.rotate(by, id));
  }
}
