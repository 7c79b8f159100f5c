import type { NotificationKind } from '../../cases/application/case-notifications.js';

/** A person's notification switches (casework.md section 4); all on unless turned off. */
export interface NotificationPreferences {
  assigned: boolean;
  mentioned: boolean;
  watched: boolean;
}
export type Preference = keyof NotificationPreferences;
export const PREFERENCES: readonly Preference[] = ['assigned', 'mentioned', 'watched'];
export const ALL_ON: NotificationPreferences = { assigned: true, mentioned: true, watched: true };

/** The switch a kind of notification follows. */
export function preferenceOf(kind: NotificationKind): Preference {
  return kind === 'assigned' || kind === 'mentioned' ? kind : 'watched';
}

/** How long a summary line may be: a note's body is never copied into a notification, only its start. */
export const MAX_SUMMARY_CHARS = 300;

export function summaryLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const oneLine = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(oneLine);
  return chars.length <= MAX_SUMMARY_CHARS ? oneLine : `${chars.slice(0, MAX_SUMMARY_CHARS - 1).join('')}…`;
}

/** At most one mail per person and case in this long (casework.md section 4). */
export const BATCH_WINDOW_MS = 60_000;
