import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { NotificationStore, type QueuedNotification } from '../application/comment-ports.js';
import { ALL_ON, BATCH_WINDOW_MS, type NotificationPreferences, type Preference, preferenceOf } from '../domain/notification.js';

/**
 * Queues an item for each person whose switch for its kind is on ($6 names the column, one of
 * three fixed names), and makes their batch for the case due: now when none was mailed in the
 * last minute, else a minute after the last; a batch already due keeps its time.
 */
const queueItems = (preference: Preference) =>
  statement(
    `WITH wanted AS (
       SELECT DISTINCT u.user_id FROM unnest($3::bigint[]) AS u(user_id)
       WHERE NOT EXISTS (SELECT 1 FROM notification_preferences p WHERE p.organization_id = $1 AND p.user_id = u.user_id AND NOT p.${preference})
     ), batch AS (
       INSERT INTO notification_batches (organization_id, user_id, case_id, due_at)
       SELECT $1, user_id, $2, now() FROM wanted
       ON CONFLICT (organization_id, user_id, case_id) DO UPDATE
         SET due_at = coalesce(notification_batches.due_at, greatest(now(), notification_batches.last_sent_at + $6 * interval '1 millisecond'))
       RETURNING user_id
     )
     INSERT INTO notification_items (organization_id, user_id, case_id, kind, summary)
     SELECT $1, user_id, $2, $4, $5 FROM batch`,
  );
const QUEUE: Record<Preference, ReturnType<typeof queueItems>> = { assigned: queueItems('assigned'), mentioned: queueItems('mentioned'), watched: queueItems('watched') };

const PREFERENCES_OF = statement('SELECT assigned, mentioned, watched FROM notification_preferences WHERE organization_id = $1 AND user_id = $2', {
  assigned: column.bool,
  mentioned: column.bool,
  watched: column.bool,
});
const SET_PREFERENCES = statement(
  `INSERT INTO notification_preferences (organization_id, user_id, assigned, mentioned, watched) VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT (organization_id, user_id) DO UPDATE SET assigned = $3, mentioned = $4, watched = $5`,
);
/** Sets $3 to $5 for a person without preferences yet, else turns off only `preference`. */
const turnOffStatement = (preference: Preference) =>
  statement(
    `INSERT INTO notification_preferences (organization_id, user_id, assigned, mentioned, watched) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (organization_id, user_id) DO UPDATE SET ${preference} = false`,
  );
const TURN_OFF: Record<Preference, ReturnType<typeof turnOffStatement>> = {
  assigned: turnOffStatement('assigned'),
  mentioned: turnOffStatement('mentioned'),
  watched: turnOffStatement('watched'),
};

@Injectable()
export class PostgresNotificationStore extends NotificationStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async queue(tx: Transaction | undefined, n: QueuedNotification): Promise<void> {
    const runner = tx ? entityManager(tx) : this.db;
    await rowsOf(runner, QUEUE[preferenceOf(n.kind)], [n.organizationId, n.caseId, n.userIds, n.kind, n.summary, BATCH_WINDOW_MS]);
  }

  async preferences(organizationId: number, userId: number): Promise<NotificationPreferences> {
    const row = await firstRowOf(this.db, PREFERENCES_OF, [organizationId, userId]);
    return row ?? ALL_ON;
  }

  async setPreferences(tx: Transaction, organizationId: number, userId: number, p: NotificationPreferences): Promise<void> {
    await rowsOf(entityManager(tx), SET_PREFERENCES, [organizationId, userId, p.assigned, p.mentioned, p.watched]);

  }

  async turnOff(tx: Transaction, organizationId: number, userId: number, preference: Preference): Promise<void> {
    const off = { ...ALL_ON, [preference]: false };
    await rowsOf(entityManager(tx), TURN_OFF[preference], [organizationId, userId, off.assigned, off.mentioned, off.watched]);

  }
}
