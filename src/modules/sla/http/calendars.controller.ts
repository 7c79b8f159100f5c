import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiBody, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { listOf, type Schema, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { CalendarsService } from '../application/calendars.service.js';
import { CalendarNamePipe } from './calendar-name.pipe.js';

const CalendarName = (creating = false) => Param('name', new CalendarNamePipe(creating));
const nameParameter = (description: string): Schema => ({ name: 'name', in: 'path', required: true, description, schema: { type: 'string', pattern: '^[A-Za-z0-9 _-]{1,64}$' } });
const calendarAnswer = (description: string) => ({ status: 200 as const, description, schema: wrapped('calendar', schemaRef('Calendar')) });
const NOT_FOUND = 'No calendar of this name in the organization (a malformed name names none).';

/** Business-hours calendars that SLA policies count their targets in (sla.md section 1). */
@Controller('api/admin/v1/calendars')
@RequiresRole('admin')
@ApiTags('Service levels')
@ApiSecurity('adminToken')
export class CalendarsController {
  constructor(private readonly calendars: CalendarsService) {}

  @Put(':name')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'putCalendar',
    summary: 'Create or replace a business-hours calendar',
    description: [
      'Open hours per weekday as wall-clock intervals in the calendar\'s IANA time zone (an interval is wall-clock time on that date, so daylight-saving changes are honoured: a wall-clock time that does not exist that day opens or closes when the clocks jump past it, one that occurs twice counts from its first showing); a weekday left out is closed, `"24x7"` is always open. Holidays are local dates closed all day.',
      'The SLA policies naming the calendar count by the new hours from their next computation.',
    ],
    parameters: [nameParameter('1 to 64 of `A-Z a-z 0-9`, space, `_` and `-`; any other name is a 422.')],
    success: calendarAnswer('The calendar as stored, weekdays from Monday.'),
    errors: { 422: 'Nothing was stored: `invalid request body` with every problem in `validation_errors`: a `time_zone` that is no IANA zone (offsets such as `+01:00` included), an unknown weekday, an interval that is not `["HH:MM", "HH:MM"]` from 00:00 to 24:00, starts at or after its end, or starts before the end of the one before it; more than 24 intervals a day; a calendar never open; a holiday that is no date or listed twice, more than 1,000 holidays, or any holiday on a `"24x7"` calendar; an unknown key. Or a malformed name.' },
  })
  @ApiBody({ schema: schemaRef('CalendarSettings'), required: true })
  async put(@Principal() caller: Caller, @ChangeAuthor() by: Author, @CalendarName(true) name: string, @Body() body: unknown) {
    return { calendar: await this.calendars.put(by, caller.organizationId, name, body) };
  }

  @Get()
  @ApiEndpoint({
    operationId: 'listCalendars',
    summary: 'List business-hours calendars',
    description: `The organization's calendars by name. ${BODY_IGNORED}`,
    success: { status: 200, description: 'The calendars.', schema: listOf('calendars', 'Calendar') },
  })
  async list(@Principal() caller: Caller) {
    return { calendars: await this.calendars.list(caller.organizationId) };
  }

  @Get(':name')
  @ApiEndpoint({
    operationId: 'getCalendar',
    summary: 'Get a business-hours calendar',
    description: BODY_IGNORED,
    parameters: [nameParameter('The calendar\'s name.')],
    success: calendarAnswer('The calendar.'),
    errors: { 404: NOT_FOUND },
  })
  async get(@Principal() caller: Caller, @CalendarName() name: string) {
    return { calendar: await this.calendars.get(caller.organizationId, name) };
  }

  @Delete(':name')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'deleteCalendar',
    summary: 'Delete a business-hours calendar',
    description: BODY_IGNORED,
    parameters: [nameParameter('The calendar\'s name.')],
    success: { status: 204, description: 'Deleted; no body.' },
    errors: { 404: NOT_FOUND, 422: 'A workflow\'s SLA policy names the calendar (the error names the workflows); nothing was deleted.' },
  })
  async delete(@Principal() caller: Caller, @ChangeAuthor() by: Author, @CalendarName() name: string) {
    await this.calendars.delete(by, caller.organizationId, name);
  }
}
