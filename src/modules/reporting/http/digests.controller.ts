import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { listOf, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { type DigestChanges, DigestsService } from '../application/digests.service.js';
import { type Digest, MANUAL_SEND_SPACING_MS, MAX_SEND_ATTEMPTS } from '../domain/digest.js';
import { CreateDigestRequest } from './create-digest.request.js';
import { UpdateDigestRequest } from './update-digest.request.js';

const DigestId = () => Param('digestId', new IdParamPipe('digest'));
const NOT_CONFIGURED_422 = '`SMTP_RELAY_URL` is not set: digests are not configured.';
const BAD_FIELDS_422 = 'an unknown key, a bad `schedule`, `hour_utc` or `weekday`, `weekday` missing on a weekly digest or given on a daily one, 0 or more than 20 recipients or one that is not an email address, bad `workflow_ids`';

/** Report digests by email: schedules per organization, sent by the worker role. */
@Controller('api/admin/v1/digests')
@RequiresRole('admin')
@ApiTags('Reports')
@ApiSecurity('adminToken')
export class DigestsController {
  constructor(private readonly digests: DigestsService) {}

  @Post()
  @HttpCode(201)
  @ApiEndpoint({
    operationId: 'createDigest',
    summary: 'Schedule a digest',
    description: `An email with the case report of each period (daily: the 24 hours up to \`hour_utc\`; weekly: the 7 days up to \`hour_utc\` on \`weekday\`), in plain text and HTML with a chart of cases created and closed per day as an inline image and a link to the dashboard's report page. Each period is sent once whatever the number of workers, within \`DIGEST_CHECK_INTERVAL_MS\` of its end; periods that ended while no worker ran are sent when one comes back (the last 7 at most). Test cases never appear in a digest. Recipients must confirm first: an address the organization never named gets one email with a link to a page where it confirms (asked again, by a later digest naming it, a week after at the earliest, unless it unsubscribed), and the digest goes only to confirmed addresses, one message each, with a link and List-Unsubscribe headers (RFC 8058 one-click) that take the address out of every digest of the organization. A period that ends while no recipient is confirmed is skipped. A send the relay refuses ${MAX_SEND_ATTEMPTS} times (retried after 5, 10, 20 and 40 minutes) is given up: the digest shows \`last_error\` and \`last_failed_at\`.`,
    success: { status: 201, description: 'The digest.', schema: wrapped('digest', schemaRef('Digest')) },
    errors: { 422: `${NOT_CONFIGURED_422} Or: ${BAD_FIELDS_422}, or the organization already has as many digests as \`MAX_DIGESTS_PER_ORGANIZATION\` allows (\`cap\` and \`limit\` name it).` },
  })
  async create(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Body() body: CreateDigestRequest) {
    const digest = await this.digests.create(by, caller.organizationId, {
      schedule: body.schedule,
      hourUtc: body.hour_utc,
      weekday: body.weekday ?? null,
      recipients: body.recipients,
      workflowIds: body.workflow_ids ?? null,
    });
    return { digest: render(digest) };
  }

  @Get()
  @RequiresRole('editor')
  @ApiEndpoint({
    operationId: 'listDigests',
    summary: 'List digests',
    description: `The organization's digests, oldest first, with which recipients confirmed or unsubscribed, when each was last sent, and the last send given up. ${BODY_IGNORED}`,
    success: { status: 200, description: 'The digests.', schema: listOf('digests', 'Digest') },
    errors: { 422: NOT_CONFIGURED_422 },
  })
  async list(@Principal() caller: Caller) {
    return { digests: (await this.digests.list(caller.organizationId)).map(render) };
  }

  @Patch(':digestId')
  @ApiEndpoint({
    operationId: 'updateDigest',
    summary: 'Change a digest',
    description: 'Any of the keys of `createDigest`, validated as when creating, the digest after the change included (a digest becoming `weekly` needs a `weekday`; one becoming `daily` drops it). `workflow_ids: null` means every workflow again. Addresses added to `recipients` are asked to confirm as on create (never one that unsubscribed); those removed get no more digests. A new schedule, hour or weekday starts with the next period it ends: no period that ended before the change is sent for it.',
    success: { status: 200, description: 'The digest after the change.', schema: wrapped('digest', schemaRef('Digest')) },
    errors: {
      404: 'No such digest in the organization.',
      422: `${NOT_CONFIGURED_422} Or nothing changed: an empty body; \`schedule\`, \`hour_utc\` or \`recipients\` null; ${BAD_FIELDS_422}. \`validation_errors\` points at the keys.`,
    },
  })
  async update(@Principal() caller: Caller, @ChangeAuthor() by: Author, @DigestId() id: number, @Body() body: UpdateDigestRequest) {
    const changes: DigestChanges = {
      ...(body.schedule !== undefined && { schedule: body.schedule }),
      ...(body.hour_utc !== undefined && { hourUtc: body.hour_utc }),
      ...(body.weekday !== undefined && { weekday: body.weekday }),
      ...(body.recipients !== undefined && { recipients: body.recipients }),
      ...(body.workflow_ids !== undefined && { workflowIds: body.workflow_ids }),
    };
    return { digest: render(await this.digests.update(by, caller.organizationId, id, changes, new Date())) };
  }

  @Delete(':digestId')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'deleteDigest',
    summary: 'Delete a digest',
    description: 'No period is sent for it any more, including one being sent at that moment if it had not gone out yet.',
    success: { status: 204, description: 'Deleted.' },
    errors: { 404: 'No such digest in the organization.', 422: NOT_CONFIGURED_422 },
  })
  async delete(@Principal() caller: Caller, @ChangeAuthor() by: Author, @DigestId() id: number): Promise<void> {
    await this.digests.delete(by, caller.organizationId, id);
  }

  @Post(':digestId/send')
  @HttpCode(202)
  @ApiEndpoint({
    operationId: 'sendDigest',
    summary: 'Send a digest now',
    description: `Sends the digest for the period of its length that ends with the current hour, apart from its schedule, to its confirmed recipients: a worker sends it within \`DIGEST_CHECK_INTERVAL_MS\`. ${BODY_IGNORED}`,
    success: { status: 202, description: 'The send is queued.' },
    errors: {
      404: 'No such digest in the organization.',
      409: 'No recipient of the digest has confirmed yet (`confirmed_recipients` is empty): nothing is queued, and the next send is not held back.',
      422: NOT_CONFIGURED_422,
      429: `An earlier manual send of the digest is still waiting, or was asked for less than ${MANUAL_SEND_SPACING_MS / 60_000} minutes ago. \`Retry-After\` says when to ask again (60 s while a send is waiting past that).`,
    },
  })
  async send(@Principal() caller: Caller, @ChangeAuthor() by: Author, @DigestId() id: number): Promise<void> {
    await this.digests.sendNow(by, caller.organizationId, id, new Date());
  }
}

function render(d: Digest) {
  return {
    id: d.id,
    schedule: d.schedule,
    hour_utc: d.hourUtc,
    weekday: d.weekday,
    recipients: d.recipients,
    confirmed_recipients: d.confirmedRecipients,
    unsubscribed_recipients: d.unsubscribedRecipients,
    workflow_ids: d.workflowIds,
    created_at: d.createdAt.toISOString(),
    last_sent_at: d.lastSentAt?.toISOString() ?? null,
    last_failed_at: d.lastFailedAt?.toISOString() ?? null,
    last_error: d.lastError,
  };
}
