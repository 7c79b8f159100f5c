import { Injectable } from '@nestjs/common';
import type { CaseProps } from '../../cases/domain/case.js';
import { businessCalendar } from '../domain/business-calendar.js';
import { type SlaClock, slaClocks } from '../domain/sla-clocks.js';
import { slaPolicy } from '../domain/sla-policy.js';
import { CaseHistories } from './case-histories.js';
import { SlaSweepStore } from './sla-stores.js';

export interface SlaClockView {
  due_at: string | null;
  state: SlaClock['state'];
  met_at: string | null;
  breached_at: string | null;
  paused: boolean;
}

/**
 * `sla` of the admin case representation (sla.md section 2): a clock that does not apply is
 * absent. With a policy, its calendar too, so that a reader can tell the due times in the
 * calendar's time zone as well as in their own.
 */
export type CaseSlaView = { policy: boolean; calendar?: { name: string; time_zone: string } } & Partial<Record<'first_response' | 'next_response' | 'resolution', SlaClockView>>;

/**
 * The clocks of one case as the admin case representation is to show them, computed from its
 * history under its current priority.
 */
@Injectable()
export class CaseSlaService {
  constructor(private readonly policies: SlaSweepStore, private readonly histories: CaseHistories) {}

  async of(subject: CaseProps, now = new Date()): Promise<CaseSlaView> {
    const inForce = await this.policies.inForce(subject.organizationId, subject.workflowId);
    const history = inForce && (await this.histories.underPolicy(subject, inForce.policy.createdAt));
    if (!inForce || !history) return { policy: false };
    const clocks = slaClocks(slaPolicy(inForce.policy.settings), businessCalendar(inForce.calendar), subject.priority, history, now);
    const iso = (date: Date | null) => date?.toISOString() ?? null;
    return {
      policy: true,
      calendar: { name: inForce.policy.settings.calendar, time_zone: inForce.calendar.time_zone },
      ...Object.fromEntries(Object.entries(clocks).map(([name, clock]) => [name, { due_at: iso(clock.due_at), state: clock.state, met_at: iso(clock.met_at), breached_at: iso(clock.breached_at), paused: clock.paused }])),
    };
  }
}
