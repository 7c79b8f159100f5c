/**
 * How long a fired SLA timer is kept: its row is what makes it fire once per clock period (a
 * sweep that wants it again finds it fired), so the sweep never brings back a timer whose time is
 * older than this (see SlaSweep), and a timer purged after this long cannot fire again. It also
 * bounds how late a timer fires after an outage: one overdue by more than this never fires.
 */
export const FIRED_SLA_TIMERS_KEPT_MS = 30 * 24 * 3_600_000;
