/**
 * Every table of the migrations and the one module that owns it: that module alone names the
 * table in its SQL (test/architecture/table-ownership.spec.ts). Another module that needs the
 * rows asks the owner, through a port the owner implements or a statement fragment it exports.
 * Keys are module folders (src/modules/<name> or src/shared/<name>).
 * @type {Record<string, string[]>}
 */
module.exports = {
  'src/modules/organizations': ['organizations'],
  'src/modules/tokens': ['access_tokens'],
  'src/modules/secrets': ['organization_secrets'],
  'src/modules/workflows': ['workflows', 'workflow_versions', 'webhook_verifications'],
  'src/modules/email': ['workflow_email_addresses'],
  'src/modules/forms': ['workflow_forms'],
  'src/modules/cases': [
    'cases',
    'case_events',
    'case_attachments',
    'case_message_ids',
    'case_feed_purges', 'case_feed_purge_counts',
    'idempotency_keys',
    'webhook_dedup_keys',
    'workflow_runs',
    'usage_rollups',
    'case_merges',
  ],
  'src/modules/case-links': ['case_links'],
  'src/modules/subscriptions': ['subscriptions', 'outbox_events', 'event_deliveries', 'delivery_attempts'],
  'src/modules/reporting': [
    'report_changes',
    'case_report_hours',
    'case_report_days',
    'case_close_times',
    'case_error_messages',
    'case_open_counts',
    'digests',
    'digest_recipients',
    'digest_sends',
  ],
  'src/modules/case-events': ['case_event_listeners', 'case_event_handlings'],
  'src/modules/retention': ['organization_retention'],
  'src/modules/audit': ['audit_entries'],
  'src/modules/sla': ['business_calendars', 'sla_policies', 'sla_timers'],
  'src/modules/teams': ['teams', 'team_members'],
  'src/modules/search': ['case_search_documents', 'case_search_positions'],
  'src/modules/people': ['users', 'sessions', 'sign_in_links', 'sign_in_mails', 'sso_configurations'],
  'src/modules/case-views': ['case_views'],
  'src/modules/bulk-changes': ['bulk_jobs', 'bulk_job_cases'],
  'src/modules/comments': ['case_comments', 'comment_mails', 'case_watchers', 'notification_preferences', 'notification_batches', 'notification_items'],
  'src/shared/cache': ['cache_generation', 'cache_invalidations'],
};
