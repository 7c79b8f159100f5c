import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery recovery for event subscriptions (integrations.md §4): the secret a rotation replaced
 * keeps signing until it expires; a delivery's retries stop at `give_up_at`, which a retry or a
 * recover moves; a disabled subscription still gets its deliveries written, ended failed at
 * once, so `recover` can send what it missed.
 */
export class SubscriptionRecovery1763860000000 implements MigrationInterface {
  name = 'SubscriptionRecovery1763860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE subscriptions
        ADD COLUMN previous_secret_ciphertext text,
        ADD COLUMN previous_secret_expires_at timestamptz;

      -- now() is evaluated once here: deliveries pending today get 26 hours from the migration.
      ALTER TABLE event_deliveries ADD COLUMN give_up_at timestamptz NOT NULL DEFAULT now() + interval '26 hours';

      -- Events are written for disabled subscriptions too, so the probe on the intake path covers them.
      DROP INDEX subscriptions_active;
      CREATE INDEX subscriptions_live ON subscriptions (organization_id) WHERE deleted_at IS NULL;

      -- recover: the deliveries of one subscription that ended failed since a time.
      CREATE INDEX event_deliveries_failed ON event_deliveries (subscription_id, finished_at) WHERE state = 'failed';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX event_deliveries_failed;
      DROP INDEX subscriptions_live;
      CREATE INDEX subscriptions_active ON subscriptions (organization_id) WHERE disabled_at IS NULL AND deleted_at IS NULL;
      ALTER TABLE event_deliveries DROP COLUMN give_up_at;
      ALTER TABLE subscriptions DROP COLUMN previous_secret_ciphertext, DROP COLUMN previous_secret_expires_at;
    `);
  }
}
