import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { schemaRef } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { NotificationPreferencesService } from '../application/notification-preferences.service.js';
import { NotificationPreferencesRequest } from './comment.requests.js';
import { personOf } from './person.js';

@Controller('api/admin/v1/me/notifications')
@RequiresRole('agent')
@ApiTags('People')
@ApiSecurity('adminToken')
export class NotificationPreferencesController {
  constructor(private readonly preferences: NotificationPreferencesService) {}

  @Get()
  @ApiEndpoint({
    operationId: 'getNotificationPreferences',
    summary: 'My notification mails',
    description: 'Which notification mails the signed-in person gets: `assigned` (a case is assigned to them), `mentioned` (a note mentions them), `watched` (a case they watch or are assigned gets a requester\'s reply, moves to `Error`, or its SLA warns or breaches). All on unless turned off.',
    success: { status: 200, description: 'The preferences.', schema: schemaRef('NotificationPreferences') },
    errors: { 422: 'The caller is an admin token, not a person.' },
  })
  get(@Principal() caller: Caller) {
    return this.preferences.get(caller.organizationId, personOf(caller));
  }

  @Put()
  @ApiEndpoint({
    operationId: 'putNotificationPreferences',
    summary: 'Set my notification mails',
    description: 'Replaces the three switches (all required). Audited. A notification already queued for a kind turned off is not sent.',
    success: { status: 200, description: 'The preferences as stored.', schema: schemaRef('NotificationPreferences') },
    errors: { 422: 'A missing or non-boolean switch, an unknown key; or the caller is an admin token, not a person.' },
  })
  put(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Body() body: NotificationPreferencesRequest) {
    const { assigned, mentioned, watched } = body;
    return this.preferences.set(caller.organizationId, personOf(caller), { assigned, mentioned, watched }, by);
  }
}
