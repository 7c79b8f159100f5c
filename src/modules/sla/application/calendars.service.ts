import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { changedParts } from '../../audit/domain/audit-summary.js';
import { type CalendarSettings, parseCalendarSettings } from '../domain/business-calendar.js';
import { CalendarStore, SlaPolicyStore, type StoredCalendar } from './sla-stores.js';

export interface CalendarView extends CalendarSettings {
  name: string;
  created_at: string;
  updated_at: string;
}

/** An organization's business-hours calendars (sla.md section 1). */
@Injectable()
export class CalendarsService {
  constructor(
    private readonly calendars: CalendarStore,
    private readonly policies: SlaPolicyStore,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  /** Creates or replaces a calendar; the policies naming it count by it from their next computation. */
  async put(by: ChangeAuthor, organizationId: number, name: string, body: unknown): Promise<CalendarView> {
    const parsed = parseCalendarSettings(body);
    if (!parsed.ok) throw new InvalidRequestError('invalid request body', parsed.problems);
    return toView(await this.transactions.run(async (tx) => {
      const stored = await this.calendars.put(tx, organizationId, name, parsed.settings);
      const target = { type: 'calendar', id: name };
      if (stored.before === null) await this.audit.record(tx, { organizationId, by, action: 'calendar.created', target, summary: { time_zone: parsed.settings.time_zone } });
      else await this.audit.record(tx, { organizationId, by, action: 'calendar.replaced', target, summary: changedParts(stored.before, parsed.settings) });
      return stored;
    }));
  }

  async list(organizationId: number): Promise<CalendarView[]> {
    return (await this.calendars.list(organizationId)).map(toView);
  }

  async get(organizationId: number, name: string): Promise<CalendarView> {
    const found = await this.calendars.find(organizationId, name);
    if (!found) throw new NotFoundError('calendar');
    return toView(found);
  }

  /** Refused while a workflow's SLA policy names it: its clocks would have no hours to count. */
  async delete(by: ChangeAuthor, organizationId: number, name: string): Promise<void> {
    await this.transactions.run(async (tx) => {
      if (!(await this.calendars.lock(tx, organizationId, name, true))) throw new NotFoundError('calendar');
      const users = await this.policies.workflowsUsing(tx, organizationId, name);
      if (users.length > 0) throw new InvalidRequestError(`the calendar is in use by the SLA policy of workflow ${users.join(', ')}: change or delete those first`);
      await this.calendars.delete(tx, organizationId, name);
      await this.audit.record(tx, { organizationId, by, action: 'calendar.deleted', target: { type: 'calendar', id: name } });
    });
  }
}

function toView(calendar: StoredCalendar): CalendarView {
  return { name: calendar.name, ...calendar.settings, created_at: calendar.createdAt.toISOString(), updated_at: calendar.updatedAt.toISOString() };
}
