// Generated from the service's OpenAPI document by openapi-typescript: do not edit.
// `npm run generate:dashboard-types` writes it anew; test/e2e/dashboard-api-types.e2e-spec.ts checks it.

export interface paths {
    "/api/admin/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List audit entries
         * @description Every change made through the admin and operator API, one entry each, written in the transaction of the change. Without `after`, the newest entries, newest first; with the `next_cursor` of an answer, the entries recorded since, oldest first (`next_cursor` is then the newest entry read, or `after` itself when there is none). An entry is listed once every change that began before it has ended (at once, unless one is slow), so a cursor never passes an entry that commits late. Entries are never changed or deleted but by retention (`audit_days`, at least 90), except that a failed sign-in (`session.sign_in_failed`) repeated within an hour of its entry adds one to that entry's `summary.count` instead of a new entry. `summary` says what changed and never holds a secret value, a token or a webhook URL. Takes no body (one that is sent is ignored).
         */
        get: operations["listAuditEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/calendars": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List business-hours calendars
         * @description The organization's calendars by name. Takes no body (one that is sent is ignored).
         */
        get: operations["listCalendars"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/calendars/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a business-hours calendar
         * @description Takes no body (one that is sent is ignored).
         */
        get: operations["getCalendar"];
        /**
         * Create or replace a business-hours calendar
         * @description Open hours per weekday as wall-clock intervals in the calendar's IANA time zone (an interval is wall-clock time on that date, so daylight-saving changes are honoured: a wall-clock time that does not exist that day opens or closes when the clocks jump past it, one that occurs twice counts from its first showing); a weekday left out is closed, `"24x7"` is always open. Holidays are local dates closed all day.
         *
         *     The SLA policies naming the calendar count by the new hours from their next computation.
         */
        put: operations["putCalendar"];
        post?: never;
        /**
         * Delete a business-hours calendar
         * @description Takes no body (one that is sent is ignored).
         */
        delete: operations["deleteCalendar"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List cases
         * @description The organization's cases, newest first (by `created_at`, then `id`) unless `sort` says otherwise, filtered by every parameter given (the same filters as the cases API's list, plus `workflow_id`, `source`, `assignee`, `team_id`, `priority` and `watching`), with how each came in (`source_type`), who works it and how many people watch it (`watchers`). With `q` (full-text search over subject, attributes, email messages and comments) the cases come by relevance, then newest first, each with its `match`, and `sort` is refused. Pages are stable under concurrent inserts: pass `next_cursor` back as `cursor` (with the same `sort` or `q`); it is null on the last page. Any other query parameter is a 422.
         */
        get: operations["listCases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/cases/{caseId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a case of the organization
         * @description The case as the cases API shows it, plus its `source_type`, who works it (`assignee`, `team`, `priority`) and `watchers` (how many people watch it), whatever workflow it belongs to.
         */
        get: operations["getAdminCase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Work a case: assign it, change its priority, status or attributes
         * @description Changes every key given together, in one transaction, or nothing: the assignee and team (`assigned` on the timeline, `case.assigned` to subscriptions), the priority (`priority_changed`), the attributes by a JSON merge patch (RFC 7396; `attributes_changed`), and the status exactly as the cases API's PATCH moves it (declared on the case's workflow version, never `Error`; recorded; the new status's run starts and counts toward usage). Each change is recorded with the person (or admin token) who made it, and audited (`case.changed`).
         */
        patch: operations["workCase"];
        trace?: never;
    };
    "/api/admin/v1/cases/{caseId}/attachments/{attachmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a file of a case of the organization
         * @description As the cases API's attachment download, whatever workflow the case belongs to.
         */
        get: operations["getAdminCaseAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/cases/{caseId}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a case's comments
         * @description Every comment, internal notes included (the organization's people read them all), oldest first, a page at a time: pass `next_cursor` back as `after`; it is null on the last page. Comments are only ever added at the end, so pages never repeat or skip one.
         */
        get: operations["listComments"];
        put?: never;
        /**
         * Comment on a case
         * @description An internal note (the organization's people only: never mailed to the requester, never in an event's body, never in the cases API) or a public reply, mailed to the case's requester by the worker: for an email case the first message's sender and Cc (the service's own addresses left out), from the workflow's inbound address, in the same thread, so the answer comes back to this case; otherwise the address in the workflow's `requester_attribute`. The mail is queued with the comment and sent once, retried for an hour while the relay refuses it; `delivery.status` tells. Recorded on the timeline (`comment_added`, without the body), told to subscriptions (`case.commented`) and audited. `@<email>` of a person of the organization who may work cases (active, `agent` or stronger) in an internal note makes them a watcher and mails them; any other address is ignored.
         */
        post: operations["createComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/cases/{caseId}/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a case's links
         * @description Anyone who reads cases reads their links. The case's links both ways, oldest first, each as this case sees it (`direction`), with the other case's id, subject, status and outcome; at most 500.
         */
        get: operations["listCaseLinks"];
        put?: never;
        /**
         * Link a case to another
         * @description Links the case to `case_id`, another case of the organization: this case relates to, duplicates or blocks it. A pair of cases has at most one link of each type, whichever way it points: the same link again answers 200 with the existing one (a `relates` link is the same both ways), and a `duplicates` or `blocks` link the other way round is refused. A case takes part in at most 500 links.
         *
         *     Both timelines get `linked` (`link_id`, `case_id`, `link_type`, `direction`). Audited as `case.linked`.
         */
        post: operations["linkCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/cases/{caseId}/links/{linkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a link of a case
         * @description Removes the link, from either of its cases. Both timelines get `unlinked`. Audited as `case.unlinked`. Takes no body (one that is sent is ignored).
         */
        delete: operations["unlinkCase"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/cases/{caseId}/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Merge a case into another
         * @description Merges the case into `into`, a case of the same workflow and mode, and answers the target. The merged case moves to `Closed` with outcome `Merged` as any move does (recorded, `case.status_changed` and `case.closed` to subscriptions, the Closed run, if the workflow has one, starts and counts toward usage). Its timeline gets `merged_into` (`case_id`), the target's `merged_from` (`case_id`) followed by a copy of each of the merged case's email messages (`email_received` with `merged_from` and `received_at`), whose files the target's attachment route serves. Replies to the merged case's thread land on the target from then on, as do those of cases merged into it before.
         *
         *     A merge is final: a case merged once is neither merged again nor merged into (422). Audited as `case.merged`.
         */
        post: operations["mergeCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/cases/{caseId}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a case's runs with their traces
         * @description The runs of the case's automation, oldest first, each with the steps it executed: where in the definition (`path`), what came of it, when, how many tries, the HTTP status its request got and its error, secret values masked. A page at a time: pass `next_cursor` back as `after`; it is null on the last page. Runs are only ever added at the end, so pages never repeat or skip one.
         */
        get: operations["listCaseRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/cases/{caseId}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a case's timeline
         * @description Everything that happened to the case, oldest first: its creation (with source and mode), every status change (from, to, by whom: API token, automation or engine), the runs it superseded and the replies it received, a page at a time: pass `next_cursor` back as `cursor`; it is null on the last page. Events are only ever added at the end, so pages never repeat or skip one.
         */
        get: operations["getCaseTimeline"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/cases/{caseId}/watchers/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Watch a case
         * @description The signed-in person watches the case: they are mailed when the requester replies, the case moves to `Error` or its SLA warns or breaches (see their notification preferences). Audited. Takes no body (one that is sent is ignored).
         */
        put: operations["watchCase"];
        post?: never;
        /**
         * Stop watching a case
         * @description The signed-in person no longer watches the case (its assignee still counts as watching it). Audited.
         */
        delete: operations["unwatchCase"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/cases/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change many cases at once
         * @description Accepts a job that changes every case of `filter` (fixed now: cases that come in later are not swept in) or of `case_ids`, at most 10,000. Each case changes as its own PATCH would (its timeline row by the caller, its event, its run, its audit entry); one that cannot (an undeclared status on its workflow, gone) is counted in `failed` with its reason.
         *
         *     The job is kept in Postgres with its cases and survives a restart of every process: each case's change commits with its mark in the job, so it finishes once and no case changes twice. Follow it with `GET /api/admin/v1/jobs/{id}`.
         */
        post: operations["bulkChangeCases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/cases/export.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export cases as CSV
         * @description Every case the admin list's filters match, newest first, as RFC 4180 CSV (UTF-8, CRLF line ends, a header record of the column names), streamed as it is read: any number of rows in bounded memory. A field whose text starts with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a leading `'`, so no spreadsheet runs it as a formula.
         *
         *     Read 500 cases at a time, each page a list read of the organization (docs/list-filters.md): the first is refused with 429 as a list read is, before anything is sent; the later ones wait for their share instead, so a long export goes at the pace the organization's budget of database time allows. The list's `cursor` and `limit` are refused (422): an export has no pages.
         */
        get: operations["exportCases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/digests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List digests
         * @description The organization's digests, oldest first, with which recipients confirmed or unsubscribed, when each was last sent, and the last send given up. Takes no body (one that is sent is ignored).
         */
        get: operations["listDigests"];
        put?: never;
        /**
         * Schedule a digest
         * @description An email with the case report of each period (daily: the 24 hours up to `hour_utc`; weekly: the 7 days up to `hour_utc` on `weekday`), in plain text and HTML with a chart of cases created and closed per day as an inline image and a link to the dashboard's report page. Each period is sent once whatever the number of workers, within `DIGEST_CHECK_INTERVAL_MS` of its end; periods that ended while no worker ran are sent when one comes back (the last 7 at most). Test cases never appear in a digest. Recipients must confirm first: an address the organization never named gets one email with a link to a page where it confirms (asked again, by a later digest naming it, a week after at the earliest, unless it unsubscribed), and the digest goes only to confirmed addresses, one message each, with a link and List-Unsubscribe headers (RFC 8058 one-click) that take the address out of every digest of the organization. A period that ends while no recipient is confirmed is skipped. A send the relay refuses 5 times (retried after 5, 10, 20 and 40 minutes) is given up: the digest shows `last_error` and `last_failed_at`.
         */
        post: operations["createDigest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/digests/{digestId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a digest
         * @description No period is sent for it any more, including one being sent at that moment if it had not gone out yet.
         */
        delete: operations["deleteDigest"];
        options?: never;
        head?: never;
        /**
         * Change a digest
         * @description Any of the keys of `createDigest`, validated as when creating, the digest after the change included (a digest becoming `weekly` needs a `weekday`; one becoming `daily` drops it). `workflow_ids: null` means every workflow again. Addresses added to `recipients` are asked to confirm as on create (never one that unsubscribed); those removed get no more digests. A new schedule, hour or weekday starts with the next period it ends: no period that ended before the change is sent for it.
         */
        patch: operations["updateDigest"];
        trace?: never;
    };
    "/api/admin/v1/digests/{digestId}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a digest now
         * @description Sends the digest for the period of its length that ends with the current hour, apart from its schedule, to its confirmed recipients: a worker sends it within `DIGEST_CHECK_INTERVAL_MS`. Takes no body (one that is sent is ignored).
         */
        post: operations["sendDigest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/jobs/{jobId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a bulk change
         * @description The job's progress: `done` cases changed, `failed` ones that could not be, and the first 100 of those by case id with why.
         */
        get: operations["getBulkJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who is calling
         * @description The signed-in person (with the CSRF token the dashboard sends) or the admin token, its role and organization.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/me/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My notification mails
         * @description Which notification mails the signed-in person gets: `assigned` (a case is assigned to them), `mentioned` (a note mentions them), `watched` (a case they watch or are assigned gets a requester's reply, moves to `Error`, or its SLA warns or breaches). All on unless turned off.
         */
        get: operations["getNotificationPreferences"];
        /**
         * Set my notification mails
         * @description Replaces the three switches (all required). Audited. A notification already queued for a kind turned off is not sent.
         */
        put: operations["putNotificationPreferences"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/reports/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the case report
         * @description Live cases over a range, per interval and in total: created (by source), closed, entering `Error`, reopened (leaving `Closed`), the time from creation to close of the cases closed in the range (p50 and p90, null when none closed), the live cases not `Closed` by status now, and the most frequent run failure messages (at most 10, each cut to 200 characters). Test cases never count.
         *
         *     Figures are kept per UTC hour as cases move and never read from the cases themselves, so retention purges do not change them and a year costs the same as a day. `from` is moved back and `to` forward to whole hours; intervals last exactly 1, 24 or 168 hours from `from` (the last one may be shorter), so days start at the hour of day `from` names in its own offset, and every timestamp of the answer is written in that offset. An offset that is not a whole number of hours starts the intervals at the whole UTC hour before. Time to close is answered from a histogram with buckets 9% wide, as the upper bound of the bucket the percentile falls in.
         */
        get: operations["getCaseReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/reports/sla": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the SLA report
         * @description Per clock and priority, over the live cases created in [`from`, `to`) under a workflow's SLA policy (created after it was set, or whose priority changed since): the clock periods measured (ended met or breached; one still running or paused is not), met, breached, the share met, and the median and 90th percentile of the business time from the period's start to its reply or close (nearest rank, in seconds; null when none got one).
         *
         *     The clocks are computed now from each case's history under its current priority, as the admin case shows them. At most 2,000 cases per report, read as the organization's list reads.
         */
        get: operations["getSlaReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get retention
         * @description How long the organization's finished runs, ended deliveries, closed cases and audit entries are kept: `retention` is what is in force, `overrides` what the organization set (null follows the default), `defaults` the deployment's `RETENTION_*_DAYS` (365 for audit entries). Usage answers never change when rows are purged (see getUsage). Takes no body (one that is sent is ignored).
         */
        get: operations["getRetention"];
        /**
         * Replace retention overrides
         * @description Replaces all the overrides at once: a key left out or null follows the deployment's default. Acts from the next purge pass on (the worker role purges every `RETENTION_PURGE_INTERVAL_MS`); rows already purged do not come back.
         */
        put: operations["putRetention"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List secrets
         * @description The organization's secrets by name; never a value.
         */
        get: operations["listSecrets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/secrets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Create or replace a secret
         * @description Stores a credential for automation, such as a CRM API key, so that workflow definitions hold `{{ secrets.NAME }}` instead of the credential itself (definitions are plain JSON, shown to every admin). A definition may use it in http_request `headers`, url query values and `body` only; anywhere else it is a 422 when the definition is saved.
         *
         *     Runs read the value when their request is sent: replacing a secret acts on the next request, deleting one makes runs that need it fail with an error naming the secret.
         */
        put: operations["putSecret"];
        post?: never;
        /**
         * Delete a secret
         * @description Runs that need it fail from then on, naming it. Takes no body (one that is sent is ignored).
         */
        delete: operations["deleteSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/sso": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get single sign-on
         * @description The organization's OpenID provider setting; never the client secret.
         */
        get: operations["getSso"];
        /**
         * Set single sign-on
         * @description Sets (or replaces) the organization's OpenID provider. People sign in at `/auth/sso?organization=<id>` (or by typing an address of a listed domain on the sign-in page, once the domain is verified: `verifySsoDomains`) with the authorization code flow, PKCE, state and nonce; register `<PUBLIC_BASE_URL>/auth/sso/callback` as the redirect URI at the provider. The ID token's signature, issuer, audience and expiry are verified against the provider's discovery document and keys; its `email` must be verified (`email_verified`) and of a listed domain. A person with no user yet becomes one with `default_role`.
         *
         *     The client secret is stored encrypted and never shown, logged or audited (the audit entry says whether it changed). A change acts at once on this instance and within 1 s on every other one.
         */
        put: operations["putSso"];
        post?: never;
        /**
         * Remove single sign-on
         * @description The organization's people sign in by email link again; their users and sessions stay. Takes no body (one that is sent is ignored).
         */
        delete: operations["deleteSso"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/sso/verify_domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify single sign-on email domains
         * @description Looks up the DNS TXT record of every listed domain not verified yet (`domain_verifications[].record_name`) and marks those whose record says `record_value` as verified, audited as `sso.domains_verified`. Only a verified domain sends a person who types an address of it on the sign-in page to this organization's provider: otherwise any organization could list a domain it does not own and collect its people's sign-ins. Listing a domain alone still lets a verified email of it sign in at `/auth/sso?organization=<id>`.
         *
         *     A domain whose record is missing, or whose lookup failed, stays unverified: check again once DNS has the record. A domain removed from `email_domains` loses its verification. Takes no body (one that is sent is ignored).
         */
        post: operations["verifySsoDomains"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/step_types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List step types
         * @description Every step type a workflow definition may use (besides `if`), with the JSON Schema of its arguments: the built-in ones and those of the extensions the service runs with.
         */
        get: operations["listStepTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List subscriptions
         * @description The organization's subscriptions, oldest first, with their health; never a secret. Deleted ones are not listed.
         */
        get: operations["listSubscriptions"];
        put?: never;
        /**
         * Subscribe to case events
         * @description Lifecycle events of the organization's live cases are POSTed to `url` (test cases never produce events); the request is described under `webhooks` (`caseEvent`). Every move is a `case.status_changed`; entering `Closed` is also a `case.closed`, leaving it a `case.reopened`, being parked in `Error` a `case.errored`.
         *
         *     Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`: HMAC-SHA256 with the `whsec_` secret of this answer, shown this once). A 2xx answer delivers; anything else, a network error or a 10-second timeout is retried with exponential backoff (from 5 seconds by default, 4 times longer each time, at most 6 hours apart) for 26 hours. Events of one case reach a subscription in order. A subscription failing for more than 3 days without one success is disabled (see `enable` and `recover`). Loopback, private, link-local and metadata addresses are refused unless the service allows them.
         */
        post: operations["createSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/subscriptions/{subscriptionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a subscription
         * @description Nothing more is sent to it, pending retries included. Takes no body (one that is sent is ignored).
         */
        delete: operations["deleteSubscription"];
        options?: never;
        head?: never;
        /**
         * Change a subscription
         * @description Any of `url`, `events` and `workflow_ids`, validated as when creating; `workflow_ids: null` means every workflow again. Events written from now on follow the change; deliveries already written keep their event and go to the new `url`.
         */
        patch: operations["updateSubscription"];
        trace?: never;
    };
    "/api/admin/v1/subscriptions/{subscriptionId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List delivery attempts
         * @description The subscription's delivery attempts, newest first: event id and type, case, attempt number, status code or error, and when. Any other query parameter is a 422.
         */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/subscriptions/{subscriptionId}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description The delivery's event is sent once more, with the same `webhook-id` and body, by a worker shortly after this answer, and logged as a new attempt. A delivery still being retried is sent now instead of at its next retry. `deliveryId` is the `delivery_id` of the deliveries log. Takes no body (one that is sent is ignored).
         */
        post: operations["retryDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/subscriptions/{subscriptionId}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a disabled subscription
         * @description Deliveries resume for events from now on; the events it missed while disabled are sent only through `recover`. Enabling an active subscription changes nothing. Takes no body (one that is sent is ignored).
         */
        post: operations["enableSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/subscriptions/{subscriptionId}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send again every delivery that failed since a time
         * @description Every delivery of this subscription that ended failed at or after `since` (its retries ran out, or it was written while the subscription was disabled) is sent again by the workers, with the same `webhook-id`, each case's events in their order, and retried as a new delivery would be.
         */
        post: operations["recoverDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/subscriptions/{subscriptionId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description A new `whsec_` secret, shown this once. For 24 hours every delivery carries two `v1,` signatures in `webhook-signature` (space-separated), one with the new secret and one with the replaced one, so the receiver can switch at its own pace; a second rotation within that day drops the oldest secret. Takes no body (one that is sent is ignored).
         */
        post: operations["rotateSubscriptionSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List teams
         * @description The organization's teams with their members, oldest first.
         */
        get: operations["listTeams"];
        put?: never;
        /**
         * Create a team
         * @description A team of people who work cases together: cases are given to it (and to one of its members) by hand or by an `assign` step.
         */
        post: operations["createTeam"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/teams/{teamId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a team
         * @description The team's cases lose their team and keep their assignee; each gets an `assigned` timeline row by whoever deleted it (subscriptions are told no `case.assigned`). Takes no body (one that is sent is ignored).
         */
        delete: operations["deleteTeam"];
        options?: never;
        head?: never;
        /**
         * Rename a team or change its members
         * @description `member_ids` replaces the members. Cases already given to someone who leaves the team keep their assignee.
         */
        patch: operations["changeTeam"];
        trace?: never;
    };
    "/api/admin/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tokens
         * @description The organization's live tokens, oldest first; never a secret. Deleted tokens are not listed.
         */
        get: operations["listTokens"];
        put?: never;
        /**
         * Create an API or admin token
         * @description The secret (`api_...` for scope `api`, `adm_...` for scope `admin`) is in this answer only: the service keeps a hash. A token of one scope never works where the other is required.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/tokens/{tokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a token
         * @description The token is refused (401) from then on: at once on this instance, within 1 s on every other one. Takes no body (one that is sent is ignored).
         */
        delete: operations["deleteToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get usage
         * @description Cases created and workflow runs started in `[from, to)`, per workflow and in total. Live figures are what is billed; test cases and their runs are reported apart and never billed. Any other query parameter is a 422.
         *
         *     Purged cases and runs still count (see getRetention): before their rows go, their counts are rolled up per UTC hour of creation, and an hour's rolled-up counts belong to the period when the hour starts in `[from, to)`. On whole hours (every billing period) the answer is therefore exact and never changes; a period that starts or ends mid-hour counts the purged rows of that hour entirely on the side where the hour starts.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users
         * @description The organization's users, oldest first.
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Invite a user
         * @description The user starts `invited`; an invitation with a one-time sign-in link, valid 7 days, is mailed to the address by the worker through `SMTP_RELAY_URL` just after this answer (a relay that is down is tried again for about an hour, then the mail is given up and logged; the user exists all the same).
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a user
         * @description The user's sessions and sign-in links end with them: their next request is refused (401), on every instance within 1 s. Takes no body (one that is sent is ignored).
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /**
         * Change a user's role
         * @description Acts on the user's next request, on every instance (within 1 s).
         */
        patch: operations["changeUser"];
        trace?: never;
    };
    "/api/admin/v1/views": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List saved views
         * @description The caller's own views and the organization's shared ones, oldest first, each with how many cases its filters match now, counted up to 10,000 (`count_capped` when there are more). Each count is a list read of the organization (docs/list-filters.md): once its share of them is spent, the remaining views have a `count` of null, and so does a view whose filters the list no longer takes.
         */
        get: operations["listCaseViews"];
        put?: never;
        /**
         * Save a view of the case list
         * @description Saves the case list's filters and columns under a name, for the caller alone or (`shared`, admins only) for everyone of the organization.
         */
        post: operations["createCaseView"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/views/{viewId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a saved view
         * @description A private view is deleted by its owner alone, a shared one by its owner or an admin. Takes no body (one that is sent is ignored).
         */
        delete: operations["deleteCaseView"];
        options?: never;
        head?: never;
        /**
         * Change a saved view
         * @description Any of a new view's fields, checked the same way. A private view is changed by its owner alone, a shared one by its owner or an admin.
         */
        patch: operations["updateCaseView"];
        trace?: never;
    };
    "/api/admin/v1/workflow_names": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workflow names
         * @description Each workflow's id, name and statuses, oldest first, without its definition; for a caller of role `agent` or stronger, with its attribute declarations too (`attributes`, as the definition declares them), for working cases.
         */
        get: operations["listWorkflowNames"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workflows
         * @description The organization's workflows, oldest first, each with its draft definition.
         */
        get: operations["listWorkflows"];
        put?: never;
        /**
         * Create a workflow
         * @description Stores the definition as the draft of a new, unpublished workflow. Defaults are filled in (`sensitive_data` false, no custom statuses, `default_outcome` null, no attributes, no automations).
         */
        post: operations["createWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows/{workflowId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a workflow
         * @description The draft definition with every status (defaults included), and whether and at which version it is published.
         */
        get: operations["getWorkflow"];
        /**
         * Replace a workflow's draft
         * @description Replaces the whole draft definition. Published versions, and the cases running on them, are not affected until the next publish.
         */
        put: operations["replaceWorkflowDraft"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows/{workflowId}/email_address": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the workflow's inbound email address
         * @description The address generated earlier (as rotated by the operator, if it was).
         */
        get: operations["getEmailAddress"];
        put?: never;
        /**
         * Generate the workflow's inbound email address
         * @description Generates the secret address of an email workflow once, `<secret>@<INBOUND_EMAIL_DOMAIN>`: calling again answers 201 with the same address. Every message the service's SMTP listener accepts for it becomes a case (or, for a reply, is added to its case). The address belongs to the workflow, not to a version; its secret part is stored hashed and encrypted. Takes no body (one that is sent is ignored).
         */
        post: operations["generateEmailAddress"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows/{workflowId}/form": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the workflow's request form URL
         * @description The URL generated earlier (as rotated by the operator, if it was).
         */
        get: operations["getRequestForm"];
        put?: never;
        /**
         * Generate the workflow's request form URL
         * @description Generates the secret URL of a ticketing workflow's hosted request form once, `<PUBLIC_BASE_URL>/forms/<secret>`: calling again answers 201 with the same URL. The page there is a form drawn from the published version's attributes; every valid post becomes a live case with `source_type` `Form`. The URL belongs to the workflow, not to a version; its secret is stored hashed and encrypted. Takes no body (one that is sent is ignored).
         */
        post: operations["generateRequestForm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows/{workflowId}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a workflow
         * @description Freezes the draft as the next version (`version` + 1) and sets `published`; new cases use it from the next request on. A draft that is the latest version as it was published (`draft_changed` false) makes no new version: the answer is the same version, published again if it was unpublished, so a retried publish changes nothing. Takes no body (one that is sent is ignored).
         */
        post: operations["publishWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows/{workflowId}/sla": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a workflow's SLA policy
         * @description Takes no body (one that is sent is ignored).
         */
        get: operations["getSlaPolicy"];
        /**
         * Set a workflow's SLA policy
         * @description Targets per priority (`low`, `normal`, `high`, `urgent`) for the clocks `first_response` (creation to the first public reply), `next_response` (a requester's message to the next public reply) and `resolution` (creation to Closed; a reopen runs it on from where it stopped), as ISO 8601 durations counted in the calendar's business hours: `P…D` whole business days (the next business day's same business-time position, the day's close when that day is shorter; under `24x7`, 24 hours), `PT…H…M…S` business time. Time in a `pause_statuses` status, or Closed, does not count.
         *
         *     The policy applies to live cases created after it was first set, under their current priority.
         */
        put: operations["putSlaPolicy"];
        post?: never;
        /**
         * Delete a workflow's SLA policy
         * @description Its cases have no clocks from then on. Takes no body (one that is sent is ignored).
         */
        delete: operations["deleteSlaPolicy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows/{workflowId}/test_runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test-run a workflow's automation
         * @description Runs the automation of the draft (or the published version), or with `on_sla` its `on_sla` steps of that kind, on a case that exists only for the run, with the engine's own step code, and reports every step: nothing is stored (no case, run, timeline row, usage, event or delivery). Status moves are followed into the next status's automation, up to 20; a `wait` is noted and skipped; a failing step ends the run as a real run would (`stopped_because: "error"`, the case in `Error`); `fail` steps end it with `failed`. `http_request` steps are shown with secrets hidden and sent only with `send_requests`, with the header `X-Case-Intake-Test-Run: true` (a header of the step's own by that name, in any case, is dropped); a test run makes one attempt where a real run would retry. Secrets are read only for an `admin`, an `owner` or an admin token: an `editor`'s run gives every step `[secret NAME]` in place of the value, also in what it sends. A run that sends is audited (`workflow.test_run_sent`). A run sends at most 20 requests and lasts at most 30 s: past either it stops with `stopped_because: "budget"` and the step that ran out shows why. The case is a `test`-mode case with id 0 and subject `Test run`.
         */
        post: operations["createWorkflowTestRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows/{workflowId}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unpublish a workflow
         * @description Stops intake at once (within 1 s on the other instances): its webhook URL answers 401 and the cases API refuses new cases (422). Existing cases carry on. Takes no body (one that is sent is ignored).
         */
        post: operations["unpublishWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows/{workflowId}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a workflow's versions
         * @description Every version the workflow was published as, newest first, with when and by whom (a token's name where a token published it; null for versions published before this was recorded). Definitions are read one version at a time.
         */
        get: operations["listWorkflowVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows/{workflowId}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a workflow version
         * @description A published version with its definition, exactly as it was published. Cases keep running on the version they started with.
         */
        get: operations["getWorkflowVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows/{workflowId}/versions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a version into the draft
         * @description The draft becomes that version's definition; nothing is published. The definition is checked by today's rules like any draft, so a version published under older rules can be refused with `workflow_definition_invalid`. Takes no body (one that is sent is ignored).
         */
        post: operations["restoreWorkflowVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows/{workflowId}/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the workflow's webhook URL
         * @description The webhook URL generated earlier (as rotated by the operator, if it was).
         */
        get: operations["getWebhook"];
        put?: never;
        /**
         * Generate the workflow's webhook URL
         * @description Generates the workflow's webhook token once: calling again answers 201 with the same URL. The token belongs to the workflow, not to a version, and is stored encrypted. Takes no body (one that is sent is ignored).
         */
        post: operations["generateWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/workflows/{workflowId}/webhook/verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the incoming webhook's signature requirement
         * @description The scheme and its options (defaults filled in); never the secret.
         */
        get: operations["getWebhookVerification"];
        /**
         * Require a signature on the incoming webhook
         * @description Sets (or replaces) how the workflow's webhook senders sign: from then on a webhook POST with a valid token is also checked against the signature headers of `scheme`, over the exact bytes of the body, before it is parsed. A missing, malformed, wrong or stale signature is a 401 `signature verification failed`: no case, no run, nothing metered. Any one of several signatures passing is enough.
         *
         *     Schemes: `github` (`X-Hub-Signature-256: sha256=<hex>` of HMAC-SHA256 over the body); `stripe` (`Stripe-Signature: t=<unix>,v1=<hex>[,v1=...]` over `<t>.<body>`); `slack` (`X-Slack-Request-Timestamp` and `X-Slack-Signature: v0=<hex>` over `v0:<timestamp>:<body>`); `standard_webhooks` (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64> ...` over `<id>.<timestamp>.<body>` with the base64-decoded `whsec_` key); `hmac` (the configured `header`: `prefix` then the HMAC-`algorithm` of the body as `encoding`). Extensions may add schemes of their own (docs/extending.md); their names are accepted here like these.
         *
         *     The verification belongs to the workflow: publishing new versions and rotating the webhook token keep it. A change acts at once on this instance and within 1 s on every other one. The secret is stored encrypted and never shown or logged.
         */
        put: operations["putWebhookVerification"];
        post?: never;
        /**
         * Stop requiring a signature on the incoming webhook
         * @description The webhook takes its token alone again, at once on this instance and within 1 s on every other one. Takes no body (one that is sent is ignored).
         */
        delete: operations["deleteWebhookVerification"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/external/v1/workflows/{workflowId}/case_webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a case from an incoming webhook
         * @description The URL is the credential: the `token` query parameter must be the webhook token of the workflow in the path, and that workflow must be published with case source `direct`. No `Authorization` header is needed; any header sent for authorization is ignored.
         *
         *     The body is read as JSON whatever its `Content-Type` says (senders get it wrong), so this endpoint never answers 415. It must be a JSON object of at most 1 MB (1,048,576 bytes) and at most 1,000 top-level keys (413 otherwise), nested at most 64 levels. Each top-level key becomes a case attribute of the same name, value kept as sent; undeclared keys are kept, except on workflows with `sensitive_data`, where they are validation errors.
         *
         *     When the workflow requires a signature (putWebhookVerification), the signature headers of its scheme are checked over the exact bytes of the body before it is parsed; a request that fails is a 401, whatever its body.
         *
         *     The case is live (no test mode here), `Open`, with subject `<workflow name> via Webhook - <YYYY-MM-DD HH:MM:SS> UTC`; it exists when the 201 is sent and its run starts afterwards. By default every request creates a new case, retries included.
         *
         *     A workflow whose published version sets `webhook_dedup` (`{"key": "<JSON Pointer>", "window_seconds": N}`) makes one case per delivery key: when the value at `key` in the posted object, a string or an integer compared as its exact JSON text (`"7"` and `7` differ, and so do `"A"` and `"\u0041"`), equals that of a case this webhook created on the workflow in the last `window_seconds`, the answer is 200 with that case's id and `"duplicate": true`, and nothing is created, started, counted or emitted. Concurrent deliveries of one key create one case. A body without a value at `key`, or with another type there (a fraction, a boolean, null, an object, an array), creates a case as usual. The body is checked as for a new case first: a duplicate that fails validation is a 422.
         */
        post: operations["receiveWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/external/v1/workflows/{workflowId}/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a workflow's cases
         * @description The workflow's cases, newest first (by `created_at`, then `id`), filtered by every parameter given; any other query parameter is a 422. Each case is shown as `getCase` shows it.
         *
         *     Paging is by keyset: pass `next_cursor` back as `cursor` (with the same filters) until it is null. A case that existed when the first page was read is never repeated or skipped, whatever is created meanwhile.
         */
        get: operations["listWorkflowCases"];
        put?: never;
        /**
         * Create a case
         * @description Creates a case on a published direct workflow of the caller's organization, on its latest published version: status `Open`, outcome null. The workflow's `Open` run (if any) starts asynchronously, after the answer.
         *
         *     Only the top-level keys `subject`, `attributes` and `mode` are accepted: any other key is a 422 before anything is created. `attributes` is validated against the workflow's attribute schema (required attributes present and not null, declared types, enums and formats; undeclared keys are kept, except on workflows with `sensitive_data`) and stored exactly as sent.
         *
         *     The body is JSON of at most 1 MB (1,048,576 bytes) nested at most 64 levels deep. Send an `Idempotency-Key` to make retries safe: a replay answers 201 with the original case and `Idempotent-Replayed: true`.
         */
        post: operations["createCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/external/v1/workflows/{workflowId}/cases/{caseId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a case
         * @description The case's current status, outcome and attributes, as the latest automation step left them.
         */
        get: operations["getCase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a case's status
         * @description Moves the case to `status`, which must be declared on the workflow version the case runs on and may not be `Error` (only the engine parks a case there). `status` is the only accepted key: any other key is a 422.
         *
         *     The move is recorded on the timeline and starts the run attached to the new status (counted toward usage); a run still going in the previous status is superseded. PATCH to the current status re-enters it: it is recorded and that status's run starts again. `Closed` sets the outcome to the workflow's `default_outcome` (`Resolved` when none); any other status sets it to null. This is also how a case in `Error` is recovered.
         */
        patch: operations["changeCaseStatus"];
        trace?: never;
    };
    "/api/external/v1/workflows/{workflowId}/cases/{caseId}/attachments/{attachmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a file of a case
         * @description A file the case received (an attachment of its email, or of a reply added to it), by the id its `email.attachments` (or the `email_received` event) gives. Sent as a download: `Content-Disposition: attachment`, `X-Content-Type-Options: nosniff`.
         */
        get: operations["getCaseAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/external/v1/workflows/{workflowId}/cases/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow the changes of a workflow's cases
         * @description The change feed for incremental sync: the cases changed after the cursor `after`, in the order their changes committed, each case at most once per page and at its state when the page was read. Without `after` the feed starts at the oldest change still kept.
         *
         *     Store `next_cursor` and call again (until `cases` is empty, then from time to time): every change is delivered, including those of transactions still in flight when an earlier page was read. A cursor is a commit-order position, not a timestamp: a page reaches only changes of transactions older than every transaction still running, so a long transaction makes the feed wait, never skip. `next_cursor` is always present; it equals `after` when nothing changed.
         */
        get: operations["listCaseChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/operator/v1/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List organizations
         * @description Every organization, oldest first.
         */
        get: operations["listOrganizations"];
        put?: never;
        /**
         * Create an organization
         * @description A new organization with its first admin token, shown in this answer only; with `owner_email`, also its first owner, invited by mail (a sign-in link valid 7 days).
         */
        post: operations["createOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/operator/v1/organizations/{organizationId}/sso": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Turn off an organization's single sign-on
         * @description For an organization whose people can no longer sign in at its provider (with `required: true`, owners included): single sign-on is removed, as an owner would (`deleteSso`), audited with the operator as the actor, and its people sign in by email link again at once on every instance. Takes no body (one that is sent is ignored).
         */
        delete: operations["deleteOrganizationSso"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/operator/v1/workflows/{workflowId}/email_address/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a workflow's inbound email address
         * @description Replaces the inbound address of any organization's workflow: the old one is refused at `RCPT TO` (`550 5.1.1`) at once on this instance and within 1 s on every other one. Takes no body (one that is sent is ignored).
         */
        post: operations["rotateEmailAddress"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/operator/v1/workflows/{workflowId}/form/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a workflow's request form URL
         * @description Replaces the form URL of any organization's workflow: the old one (the form, its posts and its confirmation pages) answers 404 at once on this instance and within 1 s on every other one. Takes no body (one that is sent is ignored).
         */
        post: operations["rotateRequestForm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/operator/v1/workflows/{workflowId}/webhook/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a workflow's webhook token
         * @description Replaces the webhook token of any organization's workflow: the old URL answers 401 at once on this instance and within 1 s on every other one. Takes no body (one that is sent is ignored).
         */
        post: operations["rotateWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a sign-in link
         * @description Always 202, whether or not the address is a user's: a user with this address (in each of their organizations) gets a one-time link valid 15 minutes by mail. From a network that signed the person in before (an IPv6 /64, an IPv4 address; the last 10), a link goes out at once, at most 5 in 15 minutes; from any other, when the person's backoff allows (the first at once, then after 1 minute, 2, 4 ... up to an hour), and within 50 such links per organization in 15 minutes. Others get the same answer and no mail.
         */
        post: operations["requestSignInLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sign_out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out
         * @description Ends the session of the cookie and removes the cookie; without a live session, only removes it. Takes no body (one that is sent is ignored).
         */
        post: operations["signOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness probe
         * @description The process is up and serving HTTP. Checks nothing else and needs no credential.
         */
        get: operations["liveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description The process's metrics in the Prometheus text format: Node.js runtime figures, workflow runs started and finished (live and test apart, `mode` label), and in worker roles the rows the retention purge deleted (`purged_rows_total`, `kind` label) and the SLA sweep's passes and firings (`sla_sweep_pass_seconds`, `sla_timers_fired_total`, `sla_timer_lateness_seconds`). With `METRICS_TOKEN` set, needs `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); without it, needs no credential: expose it to the scraper only.
         */
        get: operations["metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness probe
         * @description Postgres and Redis both answer within 2 seconds: the instance can take traffic. Needs no credential. One check a second serves every probe (concurrent probes share it), so the answer can be up to a second old.
         */
        get: operations["readiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    caseEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A case lifecycle event, POSTed to a subscription's URL
         * @description Sent with `Content-Type: application/json` and the Standard Webhooks headers; verify the signature over the raw body before trusting it.
         */
        post: operations["caseEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description Who made the change. */
        Actor: {
            /** @description The token's id, for `api_token` and `admin_token`; the person's user id, for `user` (a person working the case). */
            id?: number;
            /** @description The token's name (a deleted token's too), or the person's email address (while their user exists). */
            name?: string;
            /** @description The source type of an extension's case source, for `case_source` only. */
            source_type?: string;
            /** @enum {string} */
            type: "api_token" | "admin_token" | "user" | "webhook" | "email" | "form" | "case_source" | "automation" | "engine";
        };
        AssignStep: {
            /** @description Gives the case to a member of a team (and sets its priority when given); a team without an active member leaves it unassigned, noted on its timeline. */
            assign: {
                /**
                 * @description The case's new priority, set with the assignment.
                 * @enum {unknown}
                 */
                priority?: "low" | "normal" | "high" | "urgent";
                /**
                 * @description `balanced`: the active member with the fewest open cases assigned, ties by the longest since their last assignment; `round_robin`: the active members in turn.
                 * @enum {unknown}
                 */
                strategy: "balanced" | "round_robin";
                /** @description The name of a team of the organization. */
                team: string;
            };
        };
        AttributeDeclaration: {
            /** @description The allowed values. */
            enum?: unknown[];
            /**
             * @description For `string` attributes only.
             * @enum {string}
             */
            format?: "email" | "uri" | "date-time" | "date";
            /**
             * @description Present and not null. An attribute that is not required accepts null.
             * @default false
             */
            required: boolean;
            /** @description Whether the case lists' `q` searches the attribute's values (all of them, nested ones included). Default: true, except on a workflow with `sensitive_data`, where only attributes declared `true` are searched. */
            searchable?: boolean;
            /** @enum {string} */
            type: "string" | "integer" | "number" | "boolean" | "object" | "array" | "any";
        };
        /** @description One change made through the admin or operator API. */
        AuditEntry: {
            /** @description What was done, as `<target>.<verb>` (`workflow.published`, `token.created`). */
            action: string;
            /** @description Who made the change. */
            actor: {
                /** @description The user's or token's id; `operator` for the operator. */
                id: string;
                /** @description The user's or token's name when the change was made. */
                name: string;
                /**
                 * @description A signed-in user, an admin token, or the operator token.
                 * @enum {string}
                 */
                type: "user" | "token" | "operator";
            };
            /** @description The IP address the change came from. */
            address: string | null;
            /**
             * Format: date-time
             * @description When the change was made (ISO 8601, UTC)
             */
            at: string;
            /** @description The entry's id, increasing in the order entries were written. */
            id: string;
            /** @description What changed: the JSON Pointers of a draft's changed parts (`changed`, at most 100, each at most 256 characters, a longer one shortened to a part containing it; `changed_omitted` counts the rest), `from` and `to` of settings, names of what was created. Never a secret value, a token or a webhook URL. */
            summary: Record<string, unknown>;
            /** @description What was changed. */
            target: {
                /** @description Its id (a secret's name). */
                id: string;
                /** @description What kind of thing changed (`workflow`, `token`, `secret`, ...). */
                type: string;
            };
        };
        BulkChangeRequest: {
            /** @description These cases (1 to 10,000 ids; repeats count once). One that does not exist in the organization is counted in `failed`. */
            case_ids?: number[];
            /** @description What to change on every case, as a case's PATCH (`PATCH /api/admin/v1/cases/{case_id}`) would: `status` (a declared status, never `Error`), `assignee_id`, `team_id` (an id or null), `priority` (`low`, `normal`, `high`, `urgent`); at least one of them. */
            change: {
                assignee_id?: number | null;
                /** @enum {string} */
                priority?: "low" | "normal" | "high" | "urgent";
                status?: string;
                team_id?: number | null;
            } & {
                [key: string]: unknown;
            };
            /** @description The admin case list's query parameters as text (`{"status": "Open", "workflow_id": "7"}`), validated as the list validates them (422 below `/filter`; `cursor` and `limit` are refused): every case they match as the job is accepted. `{}` is every case of the organization. */
            filter?: {
                [key: string]: string;
            };
        };
        /** @description A bulk change of cases and its progress. */
        BulkJob: {
            /** @description The change asked for. */
            change?: Record<string, unknown>;
            /**
             * Format: date-time
             * @description When it was accepted (ISO 8601, UTC)
             */
            created_at?: string;
            /** @description Cases changed. */
            done: number;
            /** @description Cases that could not be changed (`failures` says why). */
            failed: number;
            /** @description The first 100 cases (by id) that could not be changed, each with why. */
            failures?: {
                /** @description Case id. */
                case_id: number;
                reason: string;
            }[];
            /**
             * Format: date-time
             * @description When it finished; null before.
             */
            finished_at?: string | null;
            /** @description Job id. */
            id: number;
            /**
             * @description `finished` once `done` + `failed` = `total`.
             * @enum {string}
             */
            state: "queued" | "running" | "finished";
            /** @description The cases fixed when the job was accepted. */
            total: number;
        };
        /** @description A business-hours calendar; weekdays from Monday, holidays in date order. */
        Calendar: {
            /**
             * Format: date-time
             * @description When the calendar was first stored (ISO 8601, UTC)
             */
            created_at: string;
            /** @description Local dates closed all day (none on a `24x7` calendar). */
            holidays: string[];
            hours: "24x7" | {
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                fri?: string[][];
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                mon?: string[][];
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                sat?: string[][];
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                sun?: string[][];
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                thu?: string[][];
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                tue?: string[][];
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                wed?: string[][];
            };
            name: string;
            /** @description IANA time zone, such as `Europe/Berlin`. */
            time_zone: string;
            /**
             * Format: date-time
             * @description When it was last replaced (ISO 8601, UTC)
             */
            updated_at: string;
        };
        /** @description A business-hours calendar as sent. */
        CalendarSettings: {
            /** @description Local dates closed all day (none on a `24x7` calendar). */
            holidays?: string[];
            hours: "24x7" | {
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                fri?: string[][];
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                mon?: string[][];
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                sat?: string[][];
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                sun?: string[][];
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                thu?: string[][];
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                tue?: string[][];
                /** @description Open intervals, ordered and not overlapping; empty: closed. */
                wed?: string[][];
            };
            /** @description IANA time zone, such as `Europe/Berlin`. */
            time_zone: string;
        };
        /** @description A 422: the organization already holds as many as the cap allows; nothing was created. */
        CapReachedError: {
            /**
             * @description The setting that caps what the organization may hold.
             * @enum {string}
             */
            cap: "MAX_SUBSCRIPTIONS_PER_ORGANIZATION" | "MAX_WORKFLOWS_PER_ORGANIZATION" | "MAX_SECRETS_PER_ORGANIZATION" | "MAX_TOKENS_PER_ORGANIZATION" | "MAX_DIGESTS_PER_ORGANIZATION" | "MAX_USERS_PER_ORGANIZATION";
            /** @description What went wrong, for people; not a stable code. */
            error: string;
            /** @description Its value: how many the organization may hold. */
            limit: number;
        };
        /** @description A case as the cases API shows it. */
        Case: {
            /** @description The current attribute values, exactly as sent (JSON types, nested objects and arrays kept). Numbers: Postgres stores a JSON number exactly and returns it in plain decimal form (no exponent), so a number is accepted only when that form is at most 40 characters long, or no longer than the number as sent. Long mantissas and every int64 or double a normal sender writes pass (`6.02e23`, `1e-30`, `-0`, a 200-digit integer); `1e41`, `5e-324` and `1.7976931348623157e308` are refused with 422 `attributes_validation_failed` at the number's JSON Pointer (`number is too large to store exactly: at most 40 characters written out without an exponent`). A case that came by email has its message under `email`: the fields of an `email_received` timeline event (see `TimelineEvent`). */
            attributes: Record<string, unknown>;
            /**
             * Format: date-time
             * @description Creation time (ISO 8601, UTC)
             */
            created_at: string;
            /** @description Case id. */
            id: number;
            /**
             * @description Test cases run the workflow but are never billed and never produce events.
             * @enum {string}
             */
            mode: "live" | "test";
            /** @description Disposition of a `Closed` case (for example `Resolved`); null in every other status. */
            outcome: string | null;
            /** @description One of the statuses declared on the workflow version the case runs on. New cases are `Open`. */
            status: string;
            /** @description Case title; when none was given, `<workflow name> via API - <YYYY-MM-DD HH:MM:SS> UTC` (or `via Webhook`, `via Email`, `via Form`). An email case's is the message's `Subject`, trimmed. */
            subject: string;
            /**
             * Format: date-time
             * @description Time of the last change (ISO 8601, UTC)
             */
            updated_at: string;
            /** @description Workflow the case belongs to. */
            workflow_id: number;
        };
        /** @description The body of a delivery. */
        CaseEvent: {
            /** @description The case as the change left it; for `case.commented`, the comment too; for `case.sla_warning` and `case.sla_breached`, the clock that warned or breached (`sla`). */
            data: {
                case: components["schemas"]["Case"];
                comment?: {
                    author: {
                        /** @description The person's user id; null for an admin token (their email is never sent). */
                        id: number | null;
                    };
                    /** @description A public reply's text; an internal note's is never sent. */
                    body?: string;
                    id: number;
                    /** @enum {string} */
                    visibility: "internal" | "public";
                };
                sla?: {
                    /** @enum {string} */
                    clock: "first_response" | "next_response" | "resolution";
                    /**
                     * Format: date-time
                     * @description When the clock is (or was) due; null for a warning whose clock paused since.
                     */
                    due_at: string | null;
                    /** @description How long after its time the timer fired: more than a few seconds only after an outage of every worker. */
                    late_ms: number;
                };
            };
            /**
             * Format: uuid
             * @description The event's id, also sent as `webhook-id`: the same on every attempt, so receivers can drop a repeat.
             */
            id: string;
            /**
             * Format: date-time
             * @description When the change happened (ISO 8601, UTC)
             */
            timestamp: string;
            /** @enum {string} */
            type: "case.created" | "case.status_changed" | "case.closed" | "case.reopened" | "case.errored" | "case.email_received" | "case.assigned" | "case.commented" | "case.sla_warning" | "case.sla_breached";
        };
        /** @description A case in the admin case list: a case as the admin API shows it, and with `q` where it matched. */
        CaseInList: {
            /** @description The person working the case; null when nobody is (or their user was deleted). */
            assignee: {
                email: string;
                /** @description User id. */
                id: number;
            } | null;
            /** @description The current attribute values, exactly as sent (JSON types, nested objects and arrays kept). Numbers: Postgres stores a JSON number exactly and returns it in plain decimal form (no exponent), so a number is accepted only when that form is at most 40 characters long, or no longer than the number as sent. Long mantissas and every int64 or double a normal sender writes pass (`6.02e23`, `1e-30`, `-0`, a 200-digit integer); `1e41`, `5e-324` and `1.7976931348623157e308` are refused with 422 `attributes_validation_failed` at the number's JSON Pointer (`number is too large to store exactly: at most 40 characters written out without an exponent`). A case that came by email has its message under `email`: the fields of an `email_received` timeline event (see `TimelineEvent`). */
            attributes: Record<string, unknown>;
            /**
             * Format: date-time
             * @description Creation time (ISO 8601, UTC)
             */
            created_at: string;
            /** @description Case id. */
            id: number;
            /** @description With `q` only: where the case matched (docs/search.md), null when no single value holds a matched word (a phrase across two values). */
            match?: {
                /**
                 * @description The first field, in relevance order, holding a matched word.
                 * @enum {string}
                 */
                field: "subject" | "attributes" | "email" | "comment";
                /** @description JSON Pointer of the value within its field: `""` for the subject, `/order/id` in the attributes, `/email/text` or `/replies/<event id>/text` for email. */
                pointer: string | null;
                /** @description Up to 24 words of the value around the match, each matched word wrapped in `[[` `]]`. */
                snippet: string | null;
            } | null;
            /**
             * @description Test cases run the workflow but are never billed and never produce events.
             * @enum {string}
             */
            mode: "live" | "test";
            /** @description Disposition of a `Closed` case (for example `Resolved`); null in every other status. */
            outcome: string | null;
            /**
             * @description New cases are `normal`.
             * @enum {string}
             */
            priority: "low" | "normal" | "high" | "urgent";
            /** @description How the case came in: `API` (the cases API), `Webhook` (the incoming webhook), `Email` (an email to the workflow's inbound address), `Form` (the hosted request form), or the source type of an extension's case source (docs/extending.md). */
            source_type: string;
            /** @description One of the statuses declared on the workflow version the case runs on. New cases are `Open`. */
            status: string;
            /** @description Case title; when none was given, `<workflow name> via API - <YYYY-MM-DD HH:MM:SS> UTC` (or `via Webhook`, `via Email`, `via Form`). An email case's is the message's `Subject`, trimmed. */
            subject: string;
            /** @description The team the case is given to; null when none. */
            team: {
                /** @description Team id. */
                id: number;
                name: string;
            } | null;
            /**
             * Format: date-time
             * @description Time of the last change (ISO 8601, UTC)
             */
            updated_at: string;
            /** @description How many people watch the case (casework.md section 4); its assignee always counts. */
            watchers: number;
            /** @description Workflow the case belongs to. */
            workflow_id: number;
        };
        /** @description A link between two cases of the organization, as one of them sees it. */
        CaseLink: {
            /** @description The other case as it stands. */
            case: {
                /** @description The other case. */
                id: number;
                outcome: string | null;
                status: string;
                subject: string;
            };
            /**
             * Format: date-time
             * @description When the link was made (ISO 8601, UTC)
             */
            created_at: string;
            /**
             * @description `outward`: this case relates to, duplicates or blocks the other; `inward`: the other case relates to, duplicates or blocks this one.
             * @enum {string}
             */
            direction: "outward" | "inward";
            /** @description The link's id. */
            id: number;
            /** @enum {string} */
            type: "relates" | "duplicates" | "blocks";
        };
        /** @description Figures of live cases over a range. */
        CaseReport: {
            /**
             * Format: date-time
             * @description Start of the range, moved back to a whole hour (ISO 8601, in the offset `from` was given in)
             */
            from: string;
            /** @enum {string} */
            interval: "hour" | "day" | "week";
            /** @description Live cases not Closed, by status, now (whatever the range); statuses with none are left out. */
            open_by_status: {
                [key: string]: number;
            };
            /** @description Every interval of the range in order, zeros included. */
            series: {
                /** @description Moves into Closed. */
                closed: number;
                /** @description Live cases created. */
                created: number;
                /** @description Live cases created, by how they came in. */
                created_by_source: {
                    /** @description Created through API. */
                    API: number;
                    /** @description Created through Email. */
                    Email: number;
                    /** @description Created through Form. */
                    Form: number;
                    /** @description Created through Webhook. */
                    Webhook: number;
                };
                /** @description Moves into Error. */
                errored: number;
                /**
                 * Format: date-time
                 * @description Start of the interval (ISO 8601, in the offset `from` was given in)
                 */
                start: string;
            }[];
            /** @description Of the closes in the range, as the upper bound of the histogram bucket (9% wide) the percentile falls in. */
            time_to_close_seconds: {
                /** @description Closes counted. */
                count: number;
                /** @description Median time from creation to close; null when no case closed in the range. */
                p50: number | null;
                /** @description 90th percentile of the time from creation to close; null when no case closed in the range. */
                p90: number | null;
            };
            /**
             * Format: date-time
             * @description End of the range (exclusive), moved forward to a whole hour (ISO 8601, in the offset `from` was given in)
             */
            to: string;
            /** @description The most frequent run failure messages in the range, most frequent first (each cut to 200 characters; beyond 20 distinct messages per workflow and hour, the rest count as "(other errors)"). */
            top_errors: {
                /** @description Failed runs with this message. */
                count: number;
                message: string;
            }[];
            totals: {
                /** @description Moves into Closed in the range. */
                closed: number;
                /** @description Live cases created in the range. */
                created: number;
                /** @description Moves into Error in the range. */
                errored: number;
                /** @description Moves out of Closed in the range. */
                reopened: number;
            };
        };
        /** @description The SLA clocks of a case (sla.md section 2); a clock that does not apply at the case's priority (or next_response before the requester's first reply) is absent. */
        CaseSla: {
            /** @description The business-hours calendar of the policy (present with a policy only). */
            calendar?: {
                name: string;
                /** @description Its IANA time zone, such as `Europe/Berlin`: the clocks count in its business hours. */
                time_zone: string;
            };
            first_response?: components["schemas"]["SlaClock"];
            next_response?: components["schemas"]["SlaClock"];
            /** @description Whether an SLA policy applies to the case: a live case of a workflow with a policy, created after it was set. */
            policy: boolean;
            resolution?: components["schemas"]["SlaClock"];
        };
        /** @description A saved view of the case list. */
        CaseView: {
            /** @description The columns shown, in order. */
            columns: ("id" | "workflow_id" | "subject" | "status" | "outcome" | "mode" | "source_type" | "created_at" | "updated_at" | "assignee" | "team" | "priority" | "attributes")[];
            /**
             * Format: date-time
             * @description When it was saved (ISO 8601, UTC)
             */
            created_at: string;
            /** @description The admin case list's query parameters, as saved. */
            filters: {
                [key: string]: string;
            };
            /** @description View id. */
            id: number;
            name: string;
            /** @description The person who saved it; null for a view saved with an admin token. */
            owner: {
                /** @description User id. */
                id: number;
            } | null;
            /** @description Shown to everyone of the organization. */
            shared: boolean;
            /**
             * Format: date-time
             * @description When it was last changed (ISO 8601, UTC)
             */
            updated_at: string;
        };
        /** @description A case as the admin API shows it: a Case plus its `source_type`, who works it (`assignee`, `team`, `priority`), how many watch it and (one case) its SLA clocks. */
        CaseWithSource: {
            /** @description The person working the case; null when nobody is (or their user was deleted). */
            assignee: {
                email: string;
                /** @description User id. */
                id: number;
            } | null;
            /** @description The current attribute values, exactly as sent (JSON types, nested objects and arrays kept). Numbers: Postgres stores a JSON number exactly and returns it in plain decimal form (no exponent), so a number is accepted only when that form is at most 40 characters long, or no longer than the number as sent. Long mantissas and every int64 or double a normal sender writes pass (`6.02e23`, `1e-30`, `-0`, a 200-digit integer); `1e41`, `5e-324` and `1.7976931348623157e308` are refused with 422 `attributes_validation_failed` at the number's JSON Pointer (`number is too large to store exactly: at most 40 characters written out without an exponent`). A case that came by email has its message under `email`: the fields of an `email_received` timeline event (see `TimelineEvent`). */
            attributes: Record<string, unknown>;
            /**
             * Format: date-time
             * @description Creation time (ISO 8601, UTC)
             */
            created_at: string;
            /** @description Case id. */
            id: number;
            /**
             * @description Test cases run the workflow but are never billed and never produce events.
             * @enum {string}
             */
            mode: "live" | "test";
            /** @description Disposition of a `Closed` case (for example `Resolved`); null in every other status. */
            outcome: string | null;
            /**
             * @description New cases are `normal`.
             * @enum {string}
             */
            priority: "low" | "normal" | "high" | "urgent";
            /** @description The single case only (GET and PATCH of one case), not the list: its SLA clocks. */
            sla?: components["schemas"]["CaseSla"];
            /** @description How the case came in: `API` (the cases API), `Webhook` (the incoming webhook), `Email` (an email to the workflow's inbound address), `Form` (the hosted request form), or the source type of an extension's case source (docs/extending.md). */
            source_type: string;
            /** @description One of the statuses declared on the workflow version the case runs on. New cases are `Open`. */
            status: string;
            /** @description Case title; when none was given, `<workflow name> via API - <YYYY-MM-DD HH:MM:SS> UTC` (or `via Webhook`, `via Email`, `via Form`). An email case's is the message's `Subject`, trimmed. */
            subject: string;
            /** @description The team the case is given to; null when none. */
            team: {
                /** @description Team id. */
                id: number;
                name: string;
            } | null;
            /**
             * Format: date-time
             * @description Time of the last change (ISO 8601, UTC)
             */
            updated_at: string;
            /** @description How many people watch the case (casework.md section 4); its assignee always counts. */
            watchers: number;
            /** @description Workflow the case belongs to. */
            workflow_id: number;
        };
        /** @description `status` is the only accepted key. */
        ChangeStatusRequest: {
            /** @description A status declared on the case's workflow, other than `Error`. */
            status: string;
        };
        ChangeTeamRequest: {
            /** @description The members, all of them. */
            member_ids?: number[];
            name?: string;
        };
        ChangeUserRequest: {
            /**
             * @description The user's new role; the organization's last owner keeps `owner`.
             * @enum {string}
             */
            role: "admin" | "viewer" | "agent" | "editor" | "owner";
        };
        CloseStep: {
            /** @description Moves the case to `Closed` with this outcome (the workflow's default when omitted). */
            close: {
                outcome?: string;
            };
        };
        /** @description A comment on a case. */
        Comment: {
            author: {
                email: string | null;
                /** @description The person's user id; null for an admin token. */
                id: number | null;
            };
            /** @description The text, up to 65536 bytes (UTF-8). */
            body: string;
            /**
             * Format: date-time
             * @description When it was made (ISO 8601, UTC)
             */
            created_at: string;
            /** @description A public reply's mail to the requester (null for an internal note): its recipients and whether the worker has sent it yet, or gave up after an hour of refusals. */
            delivery: {
                /** @enum {string} */
                status: "queued" | "sent" | "failed";
                to: string[];
            } | null;
            /** @description Comment id; comments are listed in the order they were made. */
            id: number;
            /**
             * @description `internal`: the organization's people only. `public`: also mailed to the case's requester.
             * @enum {string}
             */
            visibility: "internal" | "public";
        };
        /** @description A test on one field, with exactly one operator. Fields: `case.id`, `case.subject`, `case.status`, `case.mode`, `case.workflow_id`, `attributes.<name>` (dots go into nested objects). */
        Condition: {
            /** @description Any JSON value. */
            equals?: unknown;
            exists?: boolean;
            field: string;
            in?: unknown[];
            /** @description Any JSON value. */
            not_equals?: unknown;
        };
        /** @description A saved view with its current count. */
        CountedCaseView: {
            /** @description The columns shown, in order. */
            columns: ("id" | "workflow_id" | "subject" | "status" | "outcome" | "mode" | "source_type" | "created_at" | "updated_at" | "assignee" | "team" | "priority" | "attributes")[];
            /** @description How many cases its filters match now, up to 10,000; null when it could not be counted now (the organization's list reads are spent, or the list no longer takes its filters). */
            count: number | null;
            /** @description More cases than `count` match. */
            count_capped: boolean;
            /**
             * Format: date-time
             * @description When it was saved (ISO 8601, UTC)
             */
            created_at: string;
            /** @description The admin case list's query parameters, as saved. */
            filters: {
                [key: string]: string;
            };
            /** @description View id. */
            id: number;
            name: string;
            /** @description The person who saved it; null for a view saved with an admin token. */
            owner: {
                /** @description User id. */
                id: number;
            } | null;
            /** @description Shown to everyone of the organization. */
            shared: boolean;
            /**
             * Format: date-time
             * @description When it was last changed (ISO 8601, UTC)
             */
            updated_at: string;
        };
        /** @description Only these top-level keys are accepted; any other key is a 422 before anything is created. */
        CreateCaseRequest: {
            /**
             * @description Validated against the workflow's attribute schema. Must be an object when present (null, arrays and strings are refused). Numbers: Postgres stores a JSON number exactly and returns it in plain decimal form (no exponent), so a number is accepted only when that form is at most 40 characters long, or no longer than the number as sent. Long mantissas and every int64 or double a normal sender writes pass (`6.02e23`, `1e-30`, `-0`, a 200-digit integer); `1e41`, `5e-324` and `1.7976931348623157e308` are refused with 422 `attributes_validation_failed` at the number's JSON Pointer (`number is too large to store exactly: at most 40 characters written out without an exponent`).
             * @default {}
             */
            attributes: {
                [key: string]: unknown;
            };
            /**
             * @default live
             * @enum {string}
             */
            mode: "live" | "test";
            /** @description Title. Omitted, null or blank: `<workflow name> via API - <YYYY-MM-DD HH:MM:SS> UTC`. */
            subject?: string | null;
        };
        CreateCaseViewRequest: {
            /** @description The columns shown (and exported), in order; all of them unless given. */
            columns?: ("id" | "workflow_id" | "subject" | "status" | "outcome" | "mode" | "source_type" | "created_at" | "updated_at" | "assignee" | "team" | "priority" | "attributes")[];
            /** @description The admin case list's query parameters (`GET /api/admin/v1/cases`) as text, such as `{"status": "Open,Triage", "workflow_id": "7"}`, validated as the list validates them (422 with `validation_errors` below `/filters`); `cursor` and `limit` are refused. */
            filters: {
                [key: string]: string;
            };
            name: string;
            /**
             * @description Shown to everyone of the organization; saving or changing a shared view takes an admin (403 otherwise). A view saved with an admin token must be shared.
             * @default false
             */
            shared: boolean;
        };
        CreateCommentRequest: {
            /** @description The text, at most 65536 bytes in UTF-8. In an internal note, `@<email>` of a person of the organization makes them a watcher and notifies them. */
            body: string;
            /**
             * @description `internal`: the organization's people only. `public`: also mailed to the requester.
             * @enum {string}
             */
            visibility: "internal" | "public";
        };
        CreateDigestRequest: {
            /** @description The UTC hour each period ends and its digest is sent. */
            hour_utc: number;
            /** @description Who gets the digest. */
            recipients: string[];
            /**
             * @description A daily digest covers the 24 hours up to `hour_utc`; a weekly one the 7 days up to `hour_utc` on `weekday`.
             * @enum {string}
             */
            schedule: "daily" | "weekly";
            /** @description ISO weekday the weekly period ends on, 1 (Monday) to 7 (Sunday). Required for weekly digests, refused for daily ones. */
            weekday?: number;
            /** @description Only these workflows' cases; all of the organization's when absent. */
            workflow_ids?: number[];
        };
        CreatedOrganization: {
            /** @description The organization's first admin token, shown this once. */
            admin_token: string;
            organization: components["schemas"]["Organization"];
            /** @description With `owner_email`: the first owner, invited. */
            owner?: components["schemas"]["User"];
        };
        CreatedSubscription: {
            /** @description The Standard Webhooks signing secret, shown this once (stored sealed). */
            signing_secret: string;
            subscription: components["schemas"]["Subscription"];
        };
        CreatedToken: {
            /** @description The bearer secret (`api_...` or `adm_...`), shown this once; only its hash is stored. */
            secret: string;
            token: components["schemas"]["Token"];
        };
        CreateOrganizationRequest: {
            /** @description The organization's name. */
            name: string;
            /**
             * Format: email
             * @description Becomes the organization's first owner (invited: mailed a sign-in link valid 7 days).
             */
            owner_email?: string;
        };
        CreateSubscriptionRequest: {
            events: ("case.created" | "case.status_changed" | "case.closed" | "case.reopened" | "case.errored" | "case.email_received" | "case.assigned" | "case.commented" | "case.sla_warning" | "case.sla_breached")[];
            /**
             * Format: uri
             * @description An `http` or `https` URL.
             */
            url: string;
            /** @description Only these workflows' cases; all of the organization's when absent. */
            workflow_ids?: number[];
        };
        CreateTeamRequest: {
            /** @description User ids: each an active user of the organization with a role of `agent` or stronger. */
            member_ids: number[];
            /** @description Unique in the organization (whatever the case of its letters). */
            name: string;
        };
        CreateTokenRequest: {
            /** @description A label for people. */
            name: string;
            /** @enum {string} */
            scope: "api" | "admin";
        };
        CreateUserRequest: {
            /**
             * Format: email
             * @description Where the invitation goes; one user per address in an organization.
             */
            email: string;
            /** @enum {string} */
            role: "admin" | "viewer" | "agent" | "editor" | "owner";
        };
        /** @description One attempt to deliver one event. */
        DeliveryAttempt: {
            attempt: number;
            /**
             * Format: date-time
             * @description When the attempt was made (ISO 8601, UTC)
             */
            attempted_at: string;
            /** @description The case the event is about. */
            case_id: number;
            delivered: boolean;
            /** @description The delivery (this event to this subscription) the attempt belongs to; what `retry` takes. */
            delivery_id: number;
            /** @description Why the attempt failed (a non-2xx answer, a network error, a timeout); null when delivered. */
            error: string | null;
            /**
             * Format: uuid
             * @description The event's id, also sent as `webhook-id`: the same on every attempt, so receivers can drop a repeat.
             */
            event_id: string;
            /** @enum {string} */
            event_type: "case.created" | "case.status_changed" | "case.closed" | "case.reopened" | "case.errored" | "case.email_received" | "case.assigned" | "case.commented" | "case.sla_warning" | "case.sla_breached";
            /** @description What the subscriber answered; null when no answer came. */
            status_code: number | null;
        };
        /** @description A report digest sent by email on a schedule. */
        Digest: {
            /** @description Those of `recipients` that confirmed (on the page their confirmation email links to) and did not unsubscribe since; confirming holds for every digest of the organization naming the address. */
            confirmed_recipients: string[];
            /** Format: date-time */
            created_at: string;
            /** @description The UTC hour each period ends. */
            hour_utc: number;
            id: number;
            /** @description The relay's last answer to that send (never the relay URL or its credentials); null if none was given up. */
            last_error: string | null;
            /**
             * Format: date-time
             * @description When a send of it was last given up, the relay having refused it 5 times; null if none was. Kept after later sends succeed: compare with `last_sent_at`.
             */
            last_failed_at: string | null;
            /**
             * Format: date-time
             * @description When a digest of it last reached a recipient (scheduled or by hand); null before the first.
             */
            last_sent_at: string | null;
            /** @description The addresses as given; only the confirmed ones get the digest. */
            recipients: string[];
            /** @enum {string} */
            schedule: "daily" | "weekly";
            /** @description Those of `recipients` that unsubscribed from the organization's digests (they get none, and no confirmation email, until they confirm again themselves). The rest are waiting for the recipient to confirm. */
            unsubscribed_recipients: string[];
            /** @description ISO weekday a weekly period ends on; null for daily digests. */
            weekday: number | null;
            /** @description Only these workflows; null: all of the organization's. */
            workflow_ids: number[] | null;
        };
        EmailAddress: {
            /** @description The workflow's secret inbound address, `<secret>@<INBOUND_EMAIL_DOMAIN>`; whoever knows it can open cases. */
            address: string;
        };
        EmailAttachment: {
            /** @description As sent; `application/octet-stream` when that was not a valid media type. */
            content_type: string;
            filename: string | null;
            /**
             * Format: uuid
             * @description Download it at `.../cases/{case_id}/attachments/{id}`.
             */
            id: string;
            /** @description SHA-256 of the decoded bytes, hex. */
            sha256: string;
            /** @description Bytes, decoded. */
            size: number;
        };
        /** @description Every error body. */
        Error: {
            /** @description What went wrong, for people; not a stable code. */
            error: string;
        };
        FailStep: {
            /** @description Fails the run on purpose with this message: the case is parked in `Error`. */
            fail: string;
        };
        Health: {
            /** @constant */
            status: "ok";
        };
        HttpRequestStep: {
            /** @description Calls an outside system; 2xx succeeds, anything else fails the run once the retries are spent. A secret's value never reaches the case, the timeline, an event, a log line or an error message (a failing step shows `[secret NAME]` in its place); what `save_response_as` stores is what the receiver answered. */
            http_request: {
                /** @description Any JSON value; templates, `{{ secrets.NAME }}` included, are resolved in its strings. */
                body?: unknown;
                /** @description Templates allowed in values, `{{ secrets.NAME }}` included: put credentials such as an API key in an organization secret (`PUT /api/admin/v1/secrets/{name}`), never in the definition, which every admin can read. A value written with CR, LF or NUL is a 422; one that holds them once filled in fails the run (`header <name> contains a line break`), and nothing is sent. */
                headers?: {
                    [key: string]: string;
                };
                /** @enum {string} */
                method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                /**
                 * @description Retries with exponential backoff from 1 second on network errors and non-2xx answers.
                 * @default 3
                 */
                retries: number;
                /** @description Attribute that receives the JSON answer. An answer holding a number the attributes' number rule refuses, or one that would take the attributes past the 1,048,576 bytes a case keeps, fails the run, and nothing is stored. */
                save_response_as?: string;
                timeout_ms?: number;
                /** @description An http(s) URL. Templates may stand only after the host (in the path, query or fragment): each value is percent-encoded as one URL component (`/ ? # @ : % &` included), so it can never change the scheme, host, port or the path above it, and a value that would make a `.` or `..` path segment fails the run. A template in the scheme, host, user or port is a 422. `{{ secrets.NAME }}` may stand only in a query value (`?key={{ secrets.CRM_KEY }}`). A url that is exactly one template (`{{ attributes.link }}`) needs `url_from_attribute`. Loopback, private, link-local and metadata addresses are refused unless the service allows them. */
                url: string;
                /**
                 * @description The url is exactly one template, and its value (an http(s) URL, else the run fails) is the whole url. The address checks apply to it as to every url. Such a step may not use `{{ secrets.NAME }}` in its headers or body (422): whoever sets the attribute chooses where the request goes.
                 * @default false
                 */
                url_from_attribute: boolean;
            };
        };
        IfStep: {
            /** @description Steps run otherwise. */
            else?: components["schemas"]["Step"][];
            if: components["schemas"]["Condition"];
            /** @description Steps run when the condition holds. */
            then: components["schemas"]["Step"][];
        };
        /** @description `case_id` and `type` are the only accepted keys. */
        LinkCaseRequest: {
            /** @description The other case, of the same organization. */
            case_id: number;
            /**
             * @description This case relates to, duplicates or blocks the other.
             * @enum {string}
             */
            type: "relates" | "duplicates" | "blocks";
        };
        /** @description Who is calling. */
        Me: {
            caller: {
                /** @description The user's or the token's id. */
                id: number;
                /** @description The user's email address or the token's name. */
                name: string;
                /** @enum {string} */
                type: "user" | "token";
            };
            /** @description For a session only: the value of the `X-CSRF-Token` header its state-changing requests without `Origin` send. */
            csrf_token?: string;
            organization: {
                /** @description Organization id. */
                id: number;
            };
            /**
             * @description `owner`: everything. `admin`: all but users. `editor`: drafts, test runs, versions, reads. `agent`: works cases (assignment, comments, bulk changes, export, merge) and reads the statuses and attribute schemas of workflows. `viewer`: reads of cases, timelines, runs, reports and usage.
             * @enum {string}
             */
            role: "viewer" | "agent" | "editor" | "admin" | "owner";
        };
        /** @description `into` is the only accepted key. */
        MergeCaseRequest: {
            /** @description The id of the case to merge into, of the same workflow. */
            into: number;
        };
        /** @description Which notification mails a person gets; all on unless turned off. */
        NotificationPreferences: {
            /** @description Mail when a case is assigned to me. */
            assigned: boolean;
            /** @description Mail when a note mentions me. */
            mentioned: boolean;
            /** @description Mail when a case I watch (or am assigned) gets a requester's reply, moves to `Error`, or its SLA warns or breaches. */
            watched: boolean;
        };
        NotificationPreferencesRequest: {
            assigned: boolean;
            mentioned: boolean;
            watched: boolean;
        };
        Organization: {
            /**
             * Format: date-time
             * @description Creation time (ISO 8601, UTC)
             */
            created_at: string;
            /** @description Organization id. */
            id: number;
            name: string;
        };
        PutRetentionRequest: {
            /** @description Days audit entries are kept after the change they record; never fewer than 90. `null` or left out: the deployment's default applies. (365 days) */
            audit_days?: number | null;
            /** @description Days a case stays Closed (unchanged) before it is deleted with its timeline, runs and deliveries; `0` keeps closed cases forever. `null` or left out: the deployment's default applies. */
            closed_cases_days?: number | null;
            /** @description Days ended deliveries (delivered, or given up) and their attempts are kept after they ended. `null` or left out: the deployment's default applies. */
            deliveries_days?: number | null;
            /** @description Days finished runs are kept after they finished. `null` or left out: the deployment's default applies. */
            runs_days?: number | null;
        };
        PutSecretRequest: {
            /** @description The value: 1 to 8,192 bytes of UTF-8. Stored encrypted (AES-256-GCM); never shown, logged or written to a case, the timeline or an error. */
            value: string;
        };
        PutSsoRequest: {
            /** @description The client id the provider gave this service. */
            client_id: string;
            /** @description The client secret (sent to the token endpoint with HTTP Basic). Stored encrypted; never shown or logged. */
            client_secret: string;
            /**
             * @description The role of a person who signs in for the first time (never `owner`).
             * @enum {string}
             */
            default_role: "viewer" | "agent" | "editor" | "admin";
            /** @description Lower-case domains (`example.com`): only a verified email address of one of these signs in. */
            email_domains: string[];
            /** @description The provider's issuer identifier, exactly as its discovery document (`/.well-known/openid-configuration` below it) states it: an `https` URL. */
            issuer: string;
            /** @description `true`: sign-in links are refused for the organization's users; they sign in here only. Turning it on ends their sessions signed in by email link, but the caller's. */
            required: boolean;
        };
        /** @description Only these keys are accepted, and of the options only those of the chosen scheme; anything else is a 422. */
        PutWebhookVerificationRequest: {
            /**
             * @description `hmac` only: the HMAC's hash function.
             * @default sha256
             * @enum {string}
             */
            algorithm: "sha256" | "sha512" | "sha1";
            /**
             * @description `hmac` only: how the MAC is written in the header (base64 is the standard alphabet, padded).
             * @default hex
             * @enum {string}
             */
            encoding: "hex" | "base64";
            /** @description `hmac` only, and required there: the request header that carries the signature (any case). */
            header?: string;
            /**
             * @description `hmac` only: text before the encoded MAC in the header, such as `sha256=`.
             * @default
             */
            prefix: string;
            /** @description How the sender signs: `github`, `stripe`, `slack`, `standard_webhooks`, `hmac` (GitHub, Stripe, Slack, Standard Webhooks, a generic HMAC in a header of your choice), or a scheme an extension registered. */
            scheme: string;
            /** @description The signing secret the sender was given, 1 to 1024 bytes; for `standard_webhooks`, `whsec_` followed by the base64 key. Stored encrypted (AES-256-GCM); never shown or logged. */
            secret: string;
            /**
             * @description `stripe`, `slack`, `standard_webhooks` and the extension schemes that take it only: how far the signed timestamp may be from the service's clock, in either direction.
             * @default 300
             */
            tolerance_seconds: number;
        };
        Readiness: {
            /** @constant */
            postgres: "ok";
            /** @constant */
            redis: "ok";
            /** @constant */
            status: "ready";
        };
        RecoverDeliveriesRequest: {
            /**
             * @description Deliveries that ended failed at or after this time are sent again; ISO 8601 with its offset (`2026-11-24T08:00:00Z`).
             * @example 2026-11-24T08:00:00Z
             */
            since: string;
        };
        RequestForm: {
            /**
             * Format: uri
             * @description The workflow's secret form URL, `<PUBLIC_BASE_URL>/forms/<secret>`: a page for people, drawn from the attributes; whoever knows it can open cases.
             */
            url: string;
        };
        /** @description How long the organization's data is kept. */
        Retention: {
            /** @description The deployment's RETENTION_*_DAYS (decimal days allowed). */
            defaults: {
                /** @description Deployment default: days audit entries are kept after the change they record (at least 90). */
                audit_days: number;
                /** @description Deployment default: days a case stays Closed before it goes; 0 keeps closed cases. */
                closed_cases_days: number;
                /** @description Deployment default: days ended deliveries and their attempts are kept after they ended. */
                deliveries_days: number;
                /** @description Deployment default: days finished runs are kept after they finished. */
                runs_days: number;
            };
            /** @description The organization's overrides; null follows the default. */
            overrides: {
                /** @description Set by the organization: days audit entries are kept after the change they record (at least 90). */
                audit_days: number | null;
                /** @description Set by the organization: days a case stays Closed before it goes; 0 keeps closed cases. */
                closed_cases_days: number | null;
                /** @description Set by the organization: days ended deliveries and their attempts are kept after they ended. */
                deliveries_days: number | null;
                /** @description Set by the organization: days finished runs are kept after they finished. */
                runs_days: number | null;
            };
            /** @description What the purge applies to the organization: its override, or the default. */
            retention: {
                /** @description In force: days audit entries are kept after the change they record (at least 90). */
                audit_days: number;
                /** @description In force: days a case stays Closed before it goes; 0 keeps closed cases. */
                closed_cases_days: number;
                /** @description In force: days ended deliveries and their attempts are kept after they ended. */
                deliveries_days: number;
                /** @description In force: days finished runs are kept after they finished. */
                runs_days: number;
            };
        };
        /** @description One run of a status's automation on a case, with its trace. */
        Run: {
            /** @description Why a failed run failed (secret values masked). */
            error: string | null;
            /**
             * Format: date-time
             * @description When it ended; null while unfinished.
             */
            finished_at: string | null;
            /** @description Run id; runs are listed in the order they started. */
            id: number;
            /**
             * @description Set on a run of the workflow's `on_sla` steps (sla.md section 3), which it executes instead of its status's; null for a status's run.
             * @enum {string|null}
             */
            on_sla: "warning" | "breached" | null;
            /**
             * Format: date-time
             * @description When a worker first took it; null while pending.
             */
            started_at: string | null;
            /**
             * @description `superseded`: the case left the status before the run ended.
             * @enum {string}
             */
            state: "pending" | "running" | "waiting" | "succeeded" | "failed" | "superseded";
            /** @description The status whose automation the run executes: the case's status when it started. */
            status_at_start: string;
            /** @description The steps it executed, in order; at most 100 (the steps after are counted in `steps_omitted`). */
            steps: components["schemas"]["RunStep"][];
            /** @description Steps executed past the first 100, not listed: a trace stays bounded whatever the workflow does. */
            steps_omitted: number;
            /** @description The published version of the workflow the run follows. */
            workflow_version: number;
        };
        /** @description One step of a run's trace. */
        RunStep: {
            /** @description How many times it was tried (a failing request is retried with backoff). */
            attempts: number;
            /** @description Why it failed (secret values masked). */
            error: string | null;
            /**
             * Format: date-time
             * @description When its last try ended (ISO 8601, UTC)
             */
            finished_at: string;
            /** @description The status of the last answer its request got; null for a step that sent none or got no answer. */
            http_status: number | null;
            /** @description What the step did, as test runs name it: `change`, `sent` (a request answered 2xx), `move`, `close`, `wait`, `then` / `else` (the branch an `if` took), `fail` (a `fail` step), `error` (a step that failed the run), `retry` (a failed try; the step is tried again later, and the entry is replaced once it is). */
            outcome: string;
            /** @description JSON Pointer of the step (or `if`) in the workflow definition, e.g. `/automations/Open/0/then/1`. */
            path: string;
            /**
             * Format: date-time
             * @description When its first try started (ISO 8601, UTC)
             */
            started_at: string;
            /** @description The step type, or `if`. */
            type: string;
        };
        /** @description An organization secret; its value is never shown. */
        Secret: {
            /**
             * Format: date-time
             * @description When the secret was first stored (ISO 8601, UTC)
             */
            created_at: string;
            /** @description Used as `{{ secrets.NAME }}` in http_request headers, url query values and body. */
            name: string;
            /**
             * Format: date-time
             * @description When its value was last replaced (ISO 8601, UTC)
             */
            updated_at: string;
        };
        SetAttributesStep: {
            /** @description Merged into the case's attributes (validated against the schema; a violation fails the run, and so does a number, possibly from a template, that the attributes' number rule refuses, or attributes that would take more than the 1,048,576 bytes a case keeps). Strings may hold `{{ path }}` templates (not `{{ secrets.NAME }}`). */
            set_attributes: Record<string, unknown>;
        };
        SetStatusStep: {
            /** @description Moves the case to this declared status; that status's run starts. */
            set_status: string;
        };
        SignInEmailRequest: {
            /**
             * Format: email
             * @description The address a sign-in link goes to, if it is a user's.
             */
            email: string;
        };
        /** @description One SLA clock of a case, counted in business hours of the policy's calendar. */
        SlaClock: {
            /**
             * Format: date-time
             * @description When it breached.
             */
            breached_at: string | null;
            /**
             * Format: date-time
             * @description When the clock reaches its target: while running, when it will; once breached, when it did; once met, the deadline it met. Null while paused.
             */
            due_at: string | null;
            /**
             * Format: date-time
             * @description When it was met: the first public reply (first_response), the next public reply (next_response), the close (resolution).
             */
            met_at: string | null;
            /** @description Not counting now: the case is in a pause status (or Closed). */
            paused: boolean;
            /** @enum {string} */
            state: "running" | "paused" | "met" | "breached";
        };
        /** @description A workflow's SLA policy. */
        SlaPolicy: {
            /** @description The name of the business-hours calendar the targets count in. */
            calendar: string;
            /**
             * Format: date-time
             * @description When the workflow's policy was first set: it applies to cases created since (ISO 8601, UTC)
             */
            created_at: string;
            /** @description Statuses declared on the workflow in which no clock counts. */
            pause_statuses: string[];
            /** @description Targets per case priority; a priority left out has no clocks. */
            targets: {
                /** @description A clock left out does not apply at that priority. */
                high?: {
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    first_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    next_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    resolution?: string;
                };
                /** @description A clock left out does not apply at that priority. */
                low?: {
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    first_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    next_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    resolution?: string;
                };
                /** @description A clock left out does not apply at that priority. */
                normal?: {
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    first_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    next_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    resolution?: string;
                };
                /** @description A clock left out does not apply at that priority. */
                urgent?: {
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    first_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    next_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    resolution?: string;
                };
            };
            /**
             * Format: date-time
             * @description When it was last replaced (ISO 8601, UTC)
             */
            updated_at: string;
            /** @description How long before a due time a running clock warns (`case.sla_warning`); null: no warnings. */
            warn_before: string | null;
            /** @description The workflow the policy is for. */
            workflow_id: number;
        };
        /** @description A workflow's SLA policy as sent. */
        SlaPolicySettings: {
            /** @description The name of the business-hours calendar the targets count in. */
            calendar: string;
            /** @description Statuses declared on the workflow in which no clock counts. */
            pause_statuses?: string[];
            /** @description Targets per case priority; a priority left out has no clocks. */
            targets: {
                /** @description A clock left out does not apply at that priority. */
                high?: {
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    first_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    next_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    resolution?: string;
                };
                /** @description A clock left out does not apply at that priority. */
                low?: {
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    first_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    next_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    resolution?: string;
                };
                /** @description A clock left out does not apply at that priority. */
                normal?: {
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    first_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    next_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    resolution?: string;
                };
                /** @description A clock left out does not apply at that priority. */
                urgent?: {
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    first_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    next_response?: string;
                    /** @description ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours. */
                    resolution?: string;
                };
            };
            /** @description How long before a due time a running clock warns (`case.sla_warning`); null: no warnings. */
            warn_before?: string | null;
        };
        /** @description The SLA report (sla.md section 4). */
        SlaReport: {
            /** @description The cases measured. */
            cases: number;
            /** @description Per clock and priority (clocks in the order first_response, next_response, resolution; priorities low to urgent); a pair with nothing measured is left out. */
            clocks: {
                breached: number;
                /** @description Business time from the period's start to its reply or close, median and 90th percentile (nearest rank); null when no period got one. */
                business_seconds_to_meet: {
                    p50: number;
                    p90: number;
                } | null;
                /** @enum {string} */
                clock: "first_response" | "next_response" | "resolution";
                /** @description Clock periods ended met or breached. */
                measured: number;
                met: number;
                /** @description met / measured; null when nothing was measured. */
                met_share: number | null;
                /** @enum {string} */
                priority: "low" | "normal" | "high" | "urgent";
            }[];
            /**
             * Format: date-time
             * @description The range's start (ISO 8601, UTC)
             */
            from: string;
            /**
             * Format: date-time
             * @description The range's end (excluded) (ISO 8601, UTC)
             */
            to: string;
            /** @description The workflow asked for; null: every workflow with a policy. */
            workflow_id: number | null;
        };
        /** @description An organization's single sign-on; the client secret is never shown. */
        SsoConfiguration: {
            client_id: string;
            /**
             * Format: date-time
             * @description When single sign-on was first set (ISO 8601, UTC)
             */
            created_at: string;
            /**
             * @description The role of a person who signs in for the first time.
             * @enum {string}
             */
            default_role: "viewer" | "agent" | "editor" | "admin";
            /** @description Each listed domain in the order of `email_domains`: whether it is verified (a typed address of it is sent to this provider), and the DNS TXT record that verifies it (`verifySsoDomains`). */
            domain_verifications: {
                domain: string;
                /** @description Where the TXT record goes: `_case-intake.<domain>`. */
                record_name: string;
                /** @description What it says: `case-intake-domain-verification=<this organization's token>`. */
                record_value: string;
                verified: boolean;
            }[];
            /** @description Lower-case, sorted: a verified email address of one of these signs in. */
            email_domains: string[];
            /** @description The OpenID provider's issuer identifier. */
            issuer: string;
            /** @description `true`: sign-in links are refused for the organization's users. */
            required: boolean;
            /**
             * Format: date-time
             * @description When it was last replaced (ISO 8601, UTC)
             */
            updated_at: string;
        };
        /** @description One step of a run. */
        Step: components["schemas"]["SetAttributesStep"] | components["schemas"]["SetStatusStep"] | components["schemas"]["CloseStep"] | components["schemas"]["HttpRequestStep"] | components["schemas"]["WaitStep"] | components["schemas"]["FailStep"] | components["schemas"]["AssignStep"] | components["schemas"]["IfStep"];
        /** @description Where and which case events are sent. */
        Subscription: {
            /**
             * Format: date-time
             * @description Creation time (ISO 8601, UTC)
             */
            created_at: string;
            /** @description `status` is `disabled`. */
            disabled: boolean;
            /**
             * Format: date-time
             * @description When it was disabled; null while active.
             */
            disabled_at: string | null;
            /** @description Why it was disabled; null while active. */
            disabled_reason: string | null;
            events: ("case.created" | "case.status_changed" | "case.closed" | "case.reopened" | "case.errored" | "case.email_received" | "case.assigned" | "case.commented" | "case.sla_warning" | "case.sla_breached")[];
            /**
             * Format: date-time
             * @description Since when deliveries fail without a success in between; null while healthy.
             */
            failing_since: string | null;
            /** @description Subscription id. */
            id: number;
            /**
             * @description `disabled` after failing for more than 3 days without one success: nothing is sent to it until it is enabled.
             * @enum {string}
             */
            status: "active" | "disabled";
            /** Format: uri */
            url: string;
            /** @description Only these workflows' cases; null: every workflow of the organization. */
            workflow_ids: number[] | null;
        };
        /** @description A team of people who work cases together. */
        Team: {
            /**
             * Format: date-time
             * @description When the team was created (ISO 8601, UTC)
             */
            created_at: string;
            /** @description Team id. */
            id: number;
            /** @description The members' user ids, ascending. */
            member_ids: number[];
            /** @description The members with their emails, in the order of `member_ids` (so an agent, who may not list users, can name them); a member whose user was deleted is left out. */
            members: {
                email: string;
                /** @description User id. */
                id: number;
            }[];
            /** @description Unique in the organization, whatever the case of its letters. */
            name: string;
        };
        /** @description Only these keys are accepted; any other key is a 422. Every key may be left out. */
        TestRunRequestBody: {
            /**
             * @description The case's attributes, validated against the chosen definition's schema as a new case's are. Numbers: Postgres stores a JSON number exactly and returns it in plain decimal form (no exponent), so a number is accepted only when that form is at most 40 characters long, or no longer than the number as sent. Long mantissas and every int64 or double a normal sender writes pass (`6.02e23`, `1e-30`, `-0`, a 200-digit integer); `1e41`, `5e-324` and `1.7976931348623157e308` are refused with 422 `attributes_validation_failed` at the number's JSON Pointer (`number is too large to store exactly: at most 40 characters written out without an exponent`).
             * @default {}
             */
            attributes: {
                [key: string]: unknown;
            };
            /**
             * @description Which definition runs: the draft, or the latest published version (422 `workflow.not_published` while the workflow is unpublished).
             * @default draft
             * @enum {string}
             */
            definition: "draft" | "published";
            /**
             * @description Runs the definition's `on_sla` steps of that kind (sla.md section 3) first, as a warning or breach of the case's SLA clock would, on a case in `status`, instead of that status's automation.
             * @enum {string}
             */
            on_sla?: "warning" | "breached";
            /**
             * @description Whether `http_request` steps (and extension steps that call out) really send, through the guarded client and with the header `X-Case-Intake-Test-Run: true`.
             * @default false
             */
            send_requests: boolean;
            /**
             * @description The status the case is in when the run starts: its automation runs first. A declared status other than `Error`.
             * @default Open
             */
            status: string;
        };
        /** @description One entry of a case's timeline. Besides `id`, `type`, `by` and `at`, each type carries its own fields: `created`: `source`, `mode`, `status`. `status_changed`: `from`, `to`, `outcome`, and `reason` when the engine parked the case. `attributes_changed`: `keys` (removed ones too). `assigned`: `from`, `to` (`{id, email}` or null), `team_from`, `team_to` (`{id, name}` or null). `priority_changed`: `from`, `to`. `assign` (what an `assign` step picked): `run_id`, `team`, `assigned` (`{id, email}`, with `strategy`; or null, with `reason`: the team has no active member, or no longer exists). `run_started`: `run_id`, `status`, `mode`. `run_succeeded`: `run_id`, `status`. `run_failed`: `run_id`, `status`, `error`. `run_waiting`: `run_id`, `until`. `run_superseded`: `run_id`, `status` (the run cut short because the case left that status). `http_request`: `run_id`, `method`, `url`, `status` (the HTTP status answered). `http_request_retry`: `run_id`, `attempt`, `error`, `retry_at`. `sla_warning` / `sla_breached` (an SLA timer fired, by `engine`): `clock`, `due_at` (null for a warning whose clock paused since), `late_ms` (how long after its time it fired: more than a few seconds only after an outage of every worker). `comment_added`: `comment_id`, `visibility` (`internal` or `public`), `author` (`id`, `email`; both null for an admin token); the body is read from the case's comments, never copied here. `email_received` (a reply added to the case; a `Closed` case then reopens, recorded as a `status_changed` by `email`): `from`, `to`, `cc`, `subject`, `text`, `html`, `message_id`, `in_reply_to`, `references`, `date`, `attachments`, the same fields as the `email` attribute of a case that came by email; and `automatic: true` when a machine sent it (`Auto-Submitted`, `Precedence: bulk`, an answer to the service's own mail), which reopens nothing; a copy of a message of a case merged into this one carries `merged_from` (that case's id) and `received_at`. `merged_into` / `merged_from` (a merge; the merged case then moves to `Closed` with outcome `Merged`): `case_id`, the other case. `linked` / `unlinked`: `link_id`, `case_id` (the other case), `link_type` (`relates`, `duplicates`, `blocks`) and `direction` (`outward`: this case relates to, duplicates or blocks the other; `inward`: the other way). */
        TimelineEvent: {
            /**
             * Format: date-time
             * @description When it happened (ISO 8601, UTC)
             */
            at: string;
            attachments?: components["schemas"]["EmailAttachment"][];
            attempt?: number;
            /**
             * @description `email_received` only, and only when a machine sent the reply: the case did not reopen.
             * @constant
             */
            automatic?: true;
            by: components["schemas"]["Actor"];
            /** @description `merged_into`, `merged_from`, `linked`, `unlinked`: the other case. */
            case_id?: number;
            cc?: {
                address: string;
                /** @description The display name; empty when none was given. */
                name: string;
            }[];
            /**
             * @description `sla_warning`, `sla_breached`: the clock.
             * @enum {string}
             */
            clock?: "first_response" | "next_response" | "resolution";
            /**
             * Format: date-time
             * @description The `Date` header in UTC; null when absent or unreadable.
             */
            date?: string | null;
            /**
             * @description `outward`: this case relates to, duplicates or blocks the other; `inward`: the other way.
             * @enum {string}
             */
            direction?: "outward" | "inward";
            /**
             * Format: date-time
             * @description `sla_warning`, `sla_breached`: when the clock is (or was) due.
             */
            due_at?: string | null;
            error?: string;
            /** @description `status_changed`, `priority_changed`: the status or priority left. `email_received`: the sender (`address`, `name`), or null. `assigned`: the assignee before (`id`, `email`), or null. */
            from?: string | Record<string, unknown> | null;
            /** @description The `text/html` part(s) as sent (decoded to UTF-8; `cid:` links kept). Never render it unescaped. */
            html?: string | null;
            /** @description Event id; events are listed in the order they happened. */
            id: number;
            /** @description A Message-ID with its angle brackets; null when there is none (or it is not one). */
            in_reply_to?: string | null;
            /** @description The attributes a step set. */
            keys?: string[];
            /** @description `sla_warning`, `sla_breached`: how long after its time the timer fired. */
            late_ms?: number;
            /** @description `linked`, `unlinked`: the link. */
            link_id?: number;
            /** @enum {string} */
            link_type?: "relates" | "duplicates" | "blocks";
            /** @description `email_received` only, on a copy of a message of a merged case: the case it came to. */
            merged_from?: number;
            /** @description A Message-ID with its angle brackets; null when there is none (or it is not one). */
            message_id?: string | null;
            method?: string;
            /** @enum {string} */
            mode?: "live" | "test";
            outcome?: string | null;
            reason?: string;
            /**
             * Format: date-time
             * @description On a copy of a merged case's message, when that case received it (ISO 8601, UTC)
             */
            received_at?: string;
            /** @description The Message-IDs of `References`, in order (at most the last 100). */
            references?: string[];
            /**
             * Format: date-time
             * @description When the step is tried again (ISO 8601, UTC)
             */
            retry_at?: string;
            /** @description The run concerned. */
            run_id?: number;
            /** @description How the case came in: `API` (the cases API), `Webhook` (the incoming webhook), `Email` (an email to the workflow's inbound address), `Form` (the hosted request form), or the source type of an extension's case source (docs/extending.md). */
            source?: string;
            /** @description The case status concerned; for `http_request`, the HTTP status answered. */
            status?: string | number;
            /** @description The `Subject` header, decoded. */
            subject?: string | null;
            /** @description `assigned`: the team before (`id`, `name`), or null. */
            team_from?: Record<string, unknown> | null;
            /** @description `assigned`: the new team (`id`, `name`), or null. */
            team_to?: Record<string, unknown> | null;
            /** @description The `text/plain` part(s), decoded to UTF-8 exactly from their charset and transfer encoding, line ends as LF; null when the message has only HTML. */
            text?: string | null;
            /** @description `status_changed`, `priority_changed`: the new status or priority. `email_received`: the `To` recipients. `assigned`: the new assignee (`id`, `email`), or null. */
            to?: string | {
                address: string;
                /** @description The display name; empty when none was given. */
                name: string;
            }[] | Record<string, unknown> | null;
            /** @description What happened (see above). */
            type: string;
            /**
             * Format: date-time
             * @description When the run resumes (ISO 8601, UTC)
             */
            until?: string;
            url?: string;
        } & {
            [key: string]: unknown;
        };
        /** @description An API or admin token; its secret is never shown again after creation. */
        Token: {
            /**
             * Format: date-time
             * @description Creation time (ISO 8601, UTC)
             */
            created_at: string;
            /** @description Token id. */
            id: number;
            /**
             * Format: date-time
             * @description Last successful use, to the minute; null if never used.
             */
            last_used_at: string | null;
            name: string;
            /**
             * @description `api`: the cases API. `admin`: the admin API.
             * @enum {string}
             */
            scope: "api" | "admin";
        };
        UpdateCaseViewRequest: {
            /** @description The columns shown (and exported), in order; all of them unless given. */
            columns?: ("id" | "workflow_id" | "subject" | "status" | "outcome" | "mode" | "source_type" | "created_at" | "updated_at" | "assignee" | "team" | "priority" | "attributes")[];
            /** @description The admin case list's query parameters (`GET /api/admin/v1/cases`) as text, such as `{"status": "Open,Triage", "workflow_id": "7"}`, validated as the list validates them (422 with `validation_errors` below `/filters`); `cursor` and `limit` are refused. */
            filters?: {
                [key: string]: string;
            };
            name?: string;
            /**
             * @description Shown to everyone of the organization; saving or changing a shared view takes an admin (403 otherwise). A view saved with an admin token must be shared.
             * @default false
             */
            shared: boolean;
        };
        UpdateDigestRequest: {
            /** @description The UTC hour each period ends and its digest is sent. */
            hour_utc?: number;
            /** @description Who gets the digest. */
            recipients?: string[];
            /**
             * @description A daily digest covers the 24 hours up to `hour_utc`; a weekly one the 7 days up to `hour_utc` on `weekday`.
             * @enum {string}
             */
            schedule?: "daily" | "weekly";
            /** @description ISO weekday the weekly period ends on, 1 (Monday) to 7 (Sunday). Required when the digest becomes weekly; left out when it becomes daily, it is dropped. */
            weekday?: number | null;
            /** @description Only these workflows' cases; `null`: every workflow of the organization again. */
            workflow_ids?: number[] | null;
        };
        UpdateSubscriptionRequest: {
            events?: ("case.created" | "case.status_changed" | "case.closed" | "case.reopened" | "case.errored" | "case.email_received" | "case.assigned" | "case.commented" | "case.sla_warning" | "case.sla_breached")[];
            /**
             * Format: uri
             * @description An `http` or `https` URL.
             */
            url?: string;
            /** @description Only these workflows' cases; `null`: every workflow of the organization again. */
            workflow_ids?: number[] | null;
        };
        /** @description Usage of an organization over a period. */
        Usage: {
            /**
             * Format: date-time
             * @description Start of the period, inclusive (ISO 8601, UTC)
             */
            from: string;
            /** @description Live cases and runs: what is billed. */
            live: {
                cases: number;
                runs: number;
            };
            /** @description Test cases and runs, reported apart and never billed. */
            test: {
                cases: number;
                runs: number;
            };
            /**
             * Format: date-time
             * @description End of the period, exclusive (ISO 8601, UTC)
             */
            to: string;
            /** @description The same counts per workflow that had any, by workflow id. */
            workflows: {
                /** @description Cases created and workflow runs started in the period. */
                live: {
                    cases: number;
                    runs: number;
                };
                /** @description Cases created and workflow runs started in the period. */
                test: {
                    cases: number;
                    runs: number;
                };
                /** @description Workflow id. */
                workflow_id: number;
            }[];
        };
        /** @description A person of the organization. */
        User: {
            /**
             * Format: date-time
             * @description When the user was invited (ISO 8601, UTC)
             */
            created_at: string;
            email: string;
            /** @description User id. */
            id: number;
            /**
             * Format: date-time
             * @description Last request of one of their sessions, to the minute; null if never signed in.
             */
            last_seen_at: string | null;
            /**
             * @description `owner`: everything. `admin`: all but users. `editor`: drafts, test runs, versions, reads. `agent`: works cases (assignment, comments, bulk changes, export, merge) and reads the statuses and attribute schemas of workflows. `viewer`: reads of cases, timelines, runs, reports and usage.
             * @enum {string}
             */
            role: "viewer" | "agent" | "editor" | "admin" | "owner";
            /**
             * @description `invited` until the person first signs in.
             * @enum {string}
             */
            status: "invited" | "active";
        };
        /** @description A 422 listing each problem with the JSON Pointer of the value at fault. */
        ValidationError: {
            /**
             * @description `attributes_validation_failed`: case attributes do not match the workflow's attribute schema. `workflow_definition_invalid`: a workflow definition was refused. `invalid request body`: a request body (or the admin case list's query string) broke the endpoint's rules, such as an unsupported key.
             * @enum {string}
             */
            error: "attributes_validation_failed" | "workflow_definition_invalid" | "invalid request body" | "invalid query string";
            /** @description Every problem found, not only the first. */
            validation_errors: components["schemas"]["ValidationProblem"][];
        };
        ValidationProblem: {
            /** @description What is wrong with it. */
            error: string;
            /** @description JSON Pointer (RFC 6901) to the offending value; `""` is the root object. */
            path: string;
        };
        WaitStep: {
            /** @description Resumes the run after this many seconds (at most 30 days). */
            wait: {
                seconds: number;
            };
        };
        Webhook: {
            /** @description The webhook token alone. */
            token: string;
            /**
             * Format: uri
             * @description The incoming webhook URL, token included: `{base}/api/external/v1/workflows/{id}/case_webhooks?token=...`.
             */
            url: string;
        };
        /** @description What the incoming webhook answers; nothing else is shown to a webhook sender. */
        WebhookCaseReceipt: {
            /** @description The new case's id. */
            id: number;
            /** @constant */
            source_type: "Webhook";
        };
        /** @description De-duplication of webhook deliveries by a key in the posted object. */
        WebhookDedup: {
            /** @description A JSON Pointer into the posted object, such as `/delivery_id` or `/event/id`. Its value, a string or an integer, is compared as its exact JSON text. */
            key: string;
            /**
             * @description How long a key keeps its case, counted from the delivery that created it.
             * @default 86400
             */
            window_seconds: number;
        };
        /** @description The signature the workflow's webhook requires, with the options of its scheme (defaults filled in); the secret is never shown. */
        WebhookVerification: {
            /**
             * @description `hmac` only.
             * @enum {string}
             */
            algorithm?: "sha256" | "sha512" | "sha1";
            /**
             * Format: date-time
             * @description When a verification was first set on the workflow (ISO 8601, UTC)
             */
            created_at: string;
            /**
             * @description `hmac` only.
             * @enum {string}
             */
            encoding?: "hex" | "base64";
            /** @description `hmac` only: the header carrying the signature, in lower case. */
            header?: string;
            /** @description `hmac` only: text before the encoded MAC (may be empty). */
            prefix?: string;
            /** @description `github`, `stripe`, `slack`, `standard_webhooks`, `hmac`, or a scheme an extension registered. */
            scheme: string;
            /** @description How far the signed timestamp may be from the service's clock, either way (`stripe`, `slack`, `standard_webhooks`). */
            tolerance_seconds?: number;
            /**
             * Format: date-time
             * @description When it was last replaced (ISO 8601, UTC)
             */
            updated_at: string;
        };
        /** @description Any subset of the keys, at least one; each given is changed, together, or none is. */
        WorkCaseRequest: {
            /** @description An active user of the organization with a role of `agent` or stronger (and a member of `team_id` when both are given); null: nobody. */
            assignee_id?: number | null;
            /** @description A JSON merge patch (RFC 7396) of the attributes: null removes a key, an object merges into an object. The merged attributes must pass the workflow's attribute schema as a whole. */
            attributes?: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            priority?: "low" | "normal" | "high" | "urgent";
            /** @description As the cases API's PATCH: a status declared on the case's workflow version, other than `Error`. */
            status?: string;
            /** @description A team of the organization; null: no team. */
            team_id?: number | null;
        };
        /** @description A workflow: its draft definition (what `name` ... `automations` show) and its publication state. Cases run on the latest published version. */
        Workflow: {
            /**
             * @description Attribute name -> declaration, answered in the order saved (the request form shows its fields in that order).
             * @default {}
             */
            attributes: {
                [key: string]: components["schemas"]["AttributeDeclaration"];
            };
            /**
             * @description Status name -> the steps of the run that starts each time a case enters that status. Every key must be a declared status other than `Error`; each step is checked (a `set_status` must name a declared status).
             * @default {}
             */
            automations: {
                [key: string]: components["schemas"]["Step"][];
            };
            /** @description Where the workflow's cases come from: `direct`, `ticketing`, `email`, or a case source an extension registered (its source type, docs/extending.md); anything else is a 422. Only `direct` workflows take cases from the cases API and the incoming webhook. */
            case_source: string;
            /**
             * Format: date-time
             * @description Creation time (ISO 8601, UTC)
             */
            created_at: string;
            /**
             * @description Outcome of a case closed through the API; `Resolved` when null.
             * @default null
             */
            default_outcome: string | null;
            /** @description Whether the draft differs from the latest published version (always true before the first publish). While false, publishing makes no new version. */
            draft_changed: boolean;
            /** @description Workflow id (the last segment of its dashboard address). */
            id: number;
            /** @description The intake name, used in default subjects (`<name> via API - ...`). */
            name: string;
            /** @description Optional (sla.md section 3): steps run as a run of the case, metered as a run, when one of its SLA clocks warns or breaches; the run starts in the transaction that fires the timer, so once per firing. Any other key is a 422. */
            on_sla?: {
                /** @description Run when a clock of the case breaches (`case.sla_breached`). */
                breached?: components["schemas"]["Step"][];
                /** @description Run when a clock of the case warns (`case.sla_warning`). */
                warning?: components["schemas"]["Step"][];
            };
            /** @description Whether the workflow takes cases right now. */
            published: boolean;
            /** @description Optional: a JSON Pointer to a declared string attribute with `format: "email"`, the address public replies to a case go to (an email case replies to its first message's sender instead). */
            requester_attribute?: string;
            /**
             * @description When true, undeclared attribute keys are refused (each is a validation error at its own path) instead of kept.
             * @default false
             */
            sensitive_data: boolean;
            /** @description All statuses of the draft: `Open`, `Closed`, `Error`, then the custom ones. */
            statuses: string[];
            /**
             * Format: date-time
             * @description Time of the last change (ISO 8601, UTC)
             */
            updated_at: string;
            /** @description The latest published version; null until the first publish. */
            version: number | null;
            /**
             * @description Direct workflows only. When set, webhook deliveries carrying the same value at `key` within `window_seconds` make one case (see receiveWebhook); null (the default) makes a case of every delivery. Like every definition change it takes effect when published.
             * @default null
             */
            webhook_dedup: components["schemas"]["WebhookDedup"] | null;
        };
        /** @description A whole workflow definition (workflows-and-automation.md). Unknown keys, at any level, are refused with `workflow_definition_invalid`. */
        WorkflowDefinition: {
            /**
             * @description Attribute name -> declaration, answered in the order saved (the request form shows its fields in that order).
             * @default {}
             */
            attributes: {
                [key: string]: components["schemas"]["AttributeDeclaration"];
            };
            /**
             * @description Status name -> the steps of the run that starts each time a case enters that status. Every key must be a declared status other than `Error`; each step is checked (a `set_status` must name a declared status).
             * @default {}
             */
            automations: {
                [key: string]: components["schemas"]["Step"][];
            };
            /** @description Where the workflow's cases come from: `direct`, `ticketing`, `email`, or a case source an extension registered (its source type, docs/extending.md); anything else is a 422. Only `direct` workflows take cases from the cases API and the incoming webhook. */
            case_source: string;
            /**
             * @description Outcome of a case closed through the API; `Resolved` when null.
             * @default null
             */
            default_outcome: string | null;
            /** @description The intake name, used in default subjects (`<name> via API - ...`). */
            name: string;
            /** @description Optional (sla.md section 3): steps run as a run of the case, metered as a run, when one of its SLA clocks warns or breaches; the run starts in the transaction that fires the timer, so once per firing. Any other key is a 422. */
            on_sla?: {
                /** @description Run when a clock of the case breaches (`case.sla_breached`). */
                breached?: components["schemas"]["Step"][];
                /** @description Run when a clock of the case warns (`case.sla_warning`). */
                warning?: components["schemas"]["Step"][];
            };
            /** @description Optional: a JSON Pointer to a declared string attribute with `format: "email"`, the address public replies to a case go to (an email case replies to its first message's sender instead). */
            requester_attribute?: string;
            /**
             * @description When true, undeclared attribute keys are refused (each is a validation error at its own path) instead of kept.
             * @default false
             */
            sensitive_data: boolean;
            /**
             * @description Custom statuses only: `Open`, `Closed` and `Error` are always present and may not be declared again.
             * @default []
             */
            statuses: string[];
            /**
             * @description Direct workflows only. When set, webhook deliveries carrying the same value at `key` within `window_seconds` make one case (see receiveWebhook); null (the default) makes a case of every delivery. Like every definition change it takes effect when published.
             * @default null
             */
            webhook_dedup: components["schemas"]["WebhookDedup"] | null;
        };
        /** @description A workflow as a case list names and filters it: no definition. */
        WorkflowName: {
            /**
             * @description The draft's attribute declarations; only for a caller of role `agent` or stronger (who works cases).
             * @default {}
             */
            attributes: {
                [key: string]: components["schemas"]["AttributeDeclaration"];
            };
            /** @description Workflow id. */
            id: number;
            /** @description The intake name, used in default subjects (`<name> via API - ...`). */
            name: string;
            /** @description All statuses of the draft: `Open`, `Closed`, `Error`, then the custom ones. */
            statuses: string[];
        };
        /** @description A published version with its definition as it was published. */
        WorkflowVersion: {
            definition: components["schemas"]["WorkflowDefinition"];
            /**
             * Format: date-time
             * @description When it was published (ISO 8601, UTC)
             */
            published_at: string;
            /** @description Who published it: the admin token's name; null for versions published before this was recorded. */
            published_by: string | null;
            /** @description The version number, counted from 1 per workflow. */
            version: number;
        };
        /** @description A published version, without its definition. */
        WorkflowVersionSummary: {
            /**
             * Format: date-time
             * @description When it was published (ISO 8601, UTC)
             */
            published_at: string;
            /** @description Who published it: the admin token's name; null for versions published before this was recorded. */
            published_by: string | null;
            /** @description The version number, counted from 1 per workflow. */
            version: number;
        };
    };
    responses: {
        /** @description Malformed request: the body does not match its `Content-Length` header, or the URL has invalid percent-encoding. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description What the request names is not in a state that allows it yet; nothing was done. */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The caller is signed in, but their role does not allow this (docs: the role table of people.md); or a session's state-changing request came from another origin, or without the dashboard's CSRF header. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description What the request names is no longer kept (retention). */
        Gone: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not found, or outside the caller's organization. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Request body larger than 1 MB (1,048,576 bytes); refused while streaming, before anything is read further. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Postgres (or, for /readyz, Redis) is unavailable right now, or did not finish the request's statement within `DATABASE_STATEMENT_TIMEOUT_MS`; nothing was done. Ask again after `Retry-After` seconds. */
        ServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many requests; nothing was done. Ask again after `Retry-After` seconds. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing or invalid credential. Every credential problem (absent, malformed, unknown, deleted, or of the wrong kind) is the same 401. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request was understood but refused; nothing was created or changed. Body errors (not valid JSON, empty, nested deeper than 64 levels, not a JSON object, text that cannot be stored such as U+0000) are `{"error"}`; rule violations list every problem in `validation_errors`; a per-organization cap reached names it in `cap` and `limit`. */
        Unprocessable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] | components["schemas"]["ValidationError"] | components["schemas"]["CapReachedError"];
            };
        };
        /** @description A request body whose `Content-Type` is not JSON (`application/json` or `application/*+json`). */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A path parameter longer than 200 characters (refused before the path is matched). */
        UriTooLong: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
        CaseId: number;
        /** @description The delivery's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
        DeliveryId: number;
        /** @description Makes retries safe: within 24 hours, a request with the same key (per organization), the same workflow and the byte-identical body creates nothing and answers 201 with the case the first one created, plus `Idempotent-Replayed: true`. The same key with a different body or workflow is a 422. */
        IdempotencyKey: string;
        /** @description The subscription's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
        SubscriptionId: number;
        /** @description The token's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
        TokenId: number;
        /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
        WorkflowId: number;
        /** @description A version number of the workflow. Anything but a positive integer below 2^31 names nothing and is answered 404. */
        WorkflowVersion: number;
    };
    requestBodies: never;
    headers: {
        /** @description `attachment`, with the file name as sent in `filename*` (RFC 8187, UTF-8) and an ASCII stand-in in `filename`; never shown inline. */
        AttachmentDisposition: string;
        /** @description Present (`true`) only when the answer replays the case an earlier request with the same `Idempotency-Key` created. */
        IdempotentReplayed: "true";
        /** @description Always `nosniff`: the content type is not guessed from the bytes. */
        NoSniff: "nosniff";
        /** @description Seconds to wait before asking again. */
        RetryAfter: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAuditEntries: {
        parameters: {
            query?: {
                /** @description Only one action, such as `workflow.published`. */
                action?: string;
                /** @description Only the changes of one actor, as `type:id` (`token:12`, `operator:operator`). */
                actor?: string;
                /** @description The `next_cursor` of an earlier answer: the entries recorded since, oldest first. Without it, the newest entries, newest first. */
                after?: string;
                /** @description How many entries. */
                limit?: number;
                /** @description Only changes of one kind of target (`workflow`) or one target (`workflow:7`, `secret:CRM_KEY`). */
                target?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of entries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: components["schemas"]["AuditEntry"][];
                        /** @description Pass as `after` to read what is recorded from then on. */
                        next_cursor: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description An unknown parameter; `after` not a `next_cursor` of this list; `limit` not an integer from 1 to 200; `actor` not `type:id`; `action` not an action name; `target` not `type` or `type:id`. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCalendars: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The calendars. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        calendars: components["schemas"]["Calendar"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCalendar: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The calendar's name. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The calendar. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        calendar: components["schemas"]["Calendar"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No calendar of this name in the organization (a malformed name names none). */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putCalendar: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1 to 64 of `A-Z a-z 0-9`, space, `_` and `-`; any other name is a 422. */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CalendarSettings"];
            };
        };
        responses: {
            /** @description The calendar as stored, weekdays from Monday. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        calendar: components["schemas"]["Calendar"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Nothing was stored: `invalid request body` with every problem in `validation_errors`: a `time_zone` that is no IANA zone (offsets such as `+01:00` included), an unknown weekday, an interval that is not `["HH:MM", "HH:MM"]` from 00:00 to 24:00, starts at or after its end, or starts before the end of the one before it; more than 24 intervals a day; a calendar never open; a holiday that is no date or listed twice, more than 1,000 holidays, or any holiday on a `"24x7"` calendar; an unknown key. Or a malformed name. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteCalendar: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The calendar's name. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No calendar of this name in the organization (a malformed name names none). */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description A workflow's SLA policy names the calendar (the error names the workflows); nothing was deleted. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCases: {
        parameters: {
            query?: {
                /** @description Only the cases assigned to this user id, to the caller (`me`, a signed-in person only: "my cases"), or to nobody (`none`). */
                assignee?: string;
                /** @description A JSON object (URL-encoded; at most 2,048 characters, nested at most 4 levels, with at most 20 array items in all, or a 422 at the offending value's pointer below `/attributes`): only cases whose attributes contain it. Nested objects match by containment too (`{"customer":{"tier":"gold"}}` matches a customer with more keys); an array matches an array holding those elements. */
                attributes?: string;
                /** @description Only cases created after this instant (ISO 8601 with offset; excluded itself). */
                created_after?: string;
                /** @description Only cases created before this instant (excluded itself). */
                created_before?: string;
                /** @description The `next_cursor` of the previous page (opaque). */
                cursor?: string;
                /** @description Page size. */
                limit?: number;
                /** @description Only live or only test cases. */
                mode?: "live" | "test";
                /** @description Only cases of this priority, or of any of several comma-separated ones (`high,urgent`). */
                priority?: string;
                /** @description Full-text search (docs/search.md): words must all match (whole words and their common forms, case- and accent-insensitive), `inv*` matches a prefix (at least 2 letters or digits), `"exact phrase"` the words in order, `-word` excludes; numbers and identifiers (`A-1043`) match whole. At most 256 characters and 16 terms, and at least one term that must match (422 otherwise); empty is no filter. With `q` the cases come by relevance (subject, then attributes, then messages), then newest first. */
                q?: string;
                /** @description Only cases with an SLA clock `breached` (its due time passed before it was met, now or earlier), or `at_risk`: running, within the policy's `warn_before` of its due time, not yet breached. As of the worker's last SLA pass (about a second behind). */
                sla?: "breached" | "at_risk";
                /** @description The order: by `created_at`, `updated_at` (the last change), `priority` (`low` to `urgent`) or `due_at` (the due time of the case's soonest running SLA clock; cases without one after all others), ascending, or descending with `-`; ties by id in the same direction. A cursor goes with the order it was read in. */
                sort?: "-created_at" | "created_at" | "-updated_at" | "updated_at" | "-priority" | "priority" | "due_at" | "-due_at";
                /** @description Only cases that came in this way: `API`, `Webhook`, `Email`, `Form`, or an extension's source type. */
                source?: string;
                /** @description Only cases in this status, or in any of several comma-separated ones (`Open,Triage`). */
                status?: string;
                /** @description Only the cases given to this team. */
                team_id?: number;
                /** @description Only cases last changed after this instant (excluded itself). */
                updated_after?: string;
                /** @description Only cases last changed before this instant (excluded itself). */
                updated_before?: string;
                /** @description Only cases the signed-in person watches (an admin token, which is no person, gets 422). */
                watching?: "true";
                /** @description Only this workflow's cases. */
                workflow_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of cases. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        cases: components["schemas"]["CaseInList"][];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        next_cursor: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description An unknown query parameter, or a value that is not valid for it (`validation_errors` names each); `assignee=me` with an admin token; a cursor read in another `sort`. */
            422: components["responses"]["Unprocessable"];
            /** @description The organization already has `LIST_READS_PER_ORGANIZATION` (2 by default) list reads (lists and change feeds, cases API and admin API together) under way on this instance, and as many waiting, or its list reads have spent their share of database time on this instance (`LIST_READ_DATABASE_MS_PER_SECOND`): nothing was read. Ask again after `Retry-After` seconds. */
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAdminCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The case. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        case: components["schemas"]["CaseWithSource"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    workCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkCaseRequest"];
            };
        };
        responses: {
            /** @description The case after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        case: components["schemas"]["CaseWithSource"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Nothing changed: no key, an unsupported key or a value of the wrong type; an assignee who is not an active user of the organization with a role of `agent` or stronger; a team the organization does not have; an assignee who is not a member of the team given with them; a status the workflow does not declare, or `Error`; attributes that, merged, the workflow's schema refuses (`validation_errors` at `/attributes/...`). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAdminCaseAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                attachmentId: string;
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    "Content-Disposition": components["headers"]["AttachmentDisposition"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case or the attachment does not exist, or belongs to another organization. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listComments: {
        parameters: {
            query?: {
                /** @description The id of the last comment of the previous page (its `next_cursor`). */
                after?: number;
                /** @description How many comments. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of comments. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        comments: components["schemas"]["Comment"][];
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            /** @description An unknown query parameter, or a value that is not valid for it (`validation_errors` names each). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createComment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCommentRequest"];
            };
        };
        responses: {
            /** @description The comment. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        comment: components["schemas"]["Comment"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description A body that is empty, over 64 KB or not text, an unknown `visibility`; or a public reply on a case whose requester is unknown. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCaseLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The links. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        links: components["schemas"]["CaseLink"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    linkCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LinkCaseRequest"];
            };
        };
        responses: {
            /** @description The link existed already: the existing one. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        link: components["schemas"]["CaseLink"];
                    };
                };
            };
            /** @description The new link, as this case sees it. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        link: components["schemas"]["CaseLink"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case or `case_id` does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description A body other than `{"case_id", "type"}`; the case itself; the link exists the other way round; or a case has 500 links already. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    unlinkCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
                linkId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case or the link does not exist, belongs to another organization, or the link is not one of this case. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    mergeCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MergeCaseRequest"];
            };
        };
        responses: {
            /** @description The target case. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        case: components["schemas"]["CaseWithSource"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case or `into` does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description A body other than `{"into": <case id>}`; `into` is the case itself, of another workflow or mode, or a merged case; or the case was already merged. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCaseRuns: {
        parameters: {
            query?: {
                /** @description The `next_cursor` of the previous page (opaque). */
                after?: string;
                /** @description At most this many runs per page. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of runs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Pass as `after` for the next page; null on the last page. */
                        next_cursor: string | null;
                        runs: components["schemas"]["Run"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            /** @description An unknown query parameter, or a value that is not valid for it (`validation_errors` names each). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCaseTimeline: {
        parameters: {
            query?: {
                /** @description The `next_cursor` of the previous page (opaque). */
                cursor?: string;
                /** @description At most this many events per page. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: components["schemas"]["TimelineEvent"][];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            /** @description An unknown query parameter, or a value that is not valid for it (`validation_errors` names each). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    watchCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Watching. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The caller is an admin token, not a person. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    unwatchCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Not watching. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The case does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The caller is an admin token, not a person. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    bulkChangeCases: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkChangeRequest"];
            };
        };
        responses: {
            /** @description The job, queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job: components["schemas"]["BulkJob"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Neither or both of `filter` and `case_ids`; a filter the case list refuses (below `/filter`); a change that is not valid (below `/change`); more than 10,000 cases, or none; or 5 jobs of the organization already under way. */
            422: components["responses"]["Unprocessable"];
            /** @description The organization already has `LIST_READS_PER_ORGANIZATION` (2 by default) list reads (lists and change feeds, cases API and admin API together) under way on this instance, and as many waiting, or its list reads have spent their share of database time on this instance (`LIST_READ_DATABASE_MS_PER_SECOND`): nothing was read. Ask again after `Retry-After` seconds. */
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    exportCases: {
        parameters: {
            query?: {
                /** @description Only the cases assigned to this user id, to the caller (`me`, a signed-in person only: "my cases"), or to nobody (`none`). */
                assignee?: string;
                /** @description A JSON object (URL-encoded; at most 2,048 characters, nested at most 4 levels, with at most 20 array items in all, or a 422 at the offending value's pointer below `/attributes`): only cases whose attributes contain it. Nested objects match by containment too (`{"customer":{"tier":"gold"}}` matches a customer with more keys); an array matches an array holding those elements. */
                attributes?: string;
                /** @description Comma-separated columns, in the order wanted, of: `id`, `workflow_id`, `subject`, `status`, `outcome`, `mode`, `source_type`, `created_at`, `updated_at`, `assignee`, `team`, `priority`, `attributes` (`attributes` is the attributes' JSON text, `assignee` the assignee's email, `team` the team's name). Every one of them, in that order, unless given. */
                columns?: string;
                /** @description Only cases created after this instant (ISO 8601 with offset; excluded itself). */
                created_after?: string;
                /** @description Only cases created before this instant (excluded itself). */
                created_before?: string;
                /** @description The `next_cursor` of the previous page (opaque). */
                cursor?: string;
                /** @description Page size. */
                limit?: number;
                /** @description Only live or only test cases. */
                mode?: "live" | "test";
                /** @description Only cases of this priority, or of any of several comma-separated ones (`high,urgent`). */
                priority?: string;
                /** @description Full-text search (docs/search.md): words must all match (whole words and their common forms, case- and accent-insensitive), `inv*` matches a prefix (at least 2 letters or digits), `"exact phrase"` the words in order, `-word` excludes; numbers and identifiers (`A-1043`) match whole. At most 256 characters and 16 terms, and at least one term that must match (422 otherwise); empty is no filter. With `q` the cases come by relevance (subject, then attributes, then messages), then newest first. */
                q?: string;
                /** @description Only cases with an SLA clock `breached` (its due time passed before it was met, now or earlier), or `at_risk`: running, within the policy's `warn_before` of its due time, not yet breached. As of the worker's last SLA pass (about a second behind). */
                sla?: "breached" | "at_risk";
                /** @description The order: by `created_at`, `updated_at` (the last change), `priority` (`low` to `urgent`) or `due_at` (the due time of the case's soonest running SLA clock; cases without one after all others), ascending, or descending with `-`; ties by id in the same direction. A cursor goes with the order it was read in. */
                sort?: "-created_at" | "created_at" | "-updated_at" | "updated_at" | "-priority" | "priority" | "due_at" | "-due_at";
                /** @description Only cases that came in this way: `API`, `Webhook`, `Email`, `Form`, or an extension's source type. */
                source?: string;
                /** @description Only cases in this status, or in any of several comma-separated ones (`Open,Triage`). */
                status?: string;
                /** @description Only the cases given to this team. */
                team_id?: number;
                /** @description Only cases last changed after this instant (excluded itself). */
                updated_after?: string;
                /** @description Only cases last changed before this instant (excluded itself). */
                updated_before?: string;
                /** @description Only cases the signed-in person watches (an admin token, which is no person, gets 422). */
                watching?: "true";
                /** @description Only this workflow's cases. */
                workflow_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cases as CSV. */
            200: {
                headers: {
                    /** @description `attachment; filename="cases.csv"` */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description An unknown query parameter, `cursor` or `limit`, or a value that is not valid for it (`validation_errors` names each). */
            422: components["responses"]["Unprocessable"];
            /** @description The organization already has `LIST_READS_PER_ORGANIZATION` (2 by default) list reads (lists and change feeds, cases API and admin API together) under way on this instance, and as many waiting, or its list reads have spent their share of database time on this instance (`LIST_READ_DATABASE_MS_PER_SECOND`): nothing was read. Ask again after `Retry-After` seconds. */
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listDigests: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The digests. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        digests: components["schemas"]["Digest"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `SMTP_RELAY_URL` is not set: digests are not configured. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createDigest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDigestRequest"];
            };
        };
        responses: {
            /** @description The digest. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        digest: components["schemas"]["Digest"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `SMTP_RELAY_URL` is not set: digests are not configured. Or: an unknown key, a bad `schedule`, `hour_utc` or `weekday`, `weekday` missing on a weekly digest or given on a daily one, 0 or more than 20 recipients or one that is not an email address, bad `workflow_ids`, or the organization already has as many digests as `MAX_DIGESTS_PER_ORGANIZATION` allows (`cap` and `limit` name it). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteDigest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                digestId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such digest in the organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `SMTP_RELAY_URL` is not set: digests are not configured. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateDigest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                digestId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateDigestRequest"];
            };
        };
        responses: {
            /** @description The digest after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        digest: components["schemas"]["Digest"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such digest in the organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `SMTP_RELAY_URL` is not set: digests are not configured. Or nothing changed: an empty body; `schedule`, `hour_utc` or `recipients` null; an unknown key, a bad `schedule`, `hour_utc` or `weekday`, `weekday` missing on a weekly digest or given on a daily one, 0 or more than 20 recipients or one that is not an email address, bad `workflow_ids`. `validation_errors` points at the keys. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    sendDigest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                digestId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The send is queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such digest in the organization. */
            404: components["responses"]["NotFound"];
            /** @description No recipient of the digest has confirmed yet (`confirmed_recipients` is empty): nothing is queued, and the next send is not held back. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `SMTP_RELAY_URL` is not set: digests are not configured. */
            422: components["responses"]["Unprocessable"];
            /** @description An earlier manual send of the digest is still waiting, or was asked for less than 10 minutes ago. `Retry-After` says when to ask again (60 s while a send is waiting past that). */
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getBulkJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                jobId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job: components["schemas"]["BulkJob"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such job in the organization. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getNotificationPreferences: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The preferences. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPreferences"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The caller is an admin token, not a person. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putNotificationPreferences: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotificationPreferencesRequest"];
            };
        };
        responses: {
            /** @description The preferences as stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPreferences"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description A missing or non-boolean switch, an unknown key; or the caller is an admin token, not a person. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCaseReport: {
        parameters: {
            query?: {
                /** @description Start of the range (inclusive), ISO 8601 with or without offset (none: UTC); moved back to a whole hour. Intervals start here, and the answer is written in this offset. Default: 30 days before `to`. */
                from?: string;
                /** @description Length of each interval of the series: 1, 24 or 168 hours from `from`. */
                interval?: "hour" | "day" | "week";
                /** @description End of the range (exclusive), ISO 8601; moved forward to a whole hour. Default: the end of the current hour. */
                to?: string;
                /** @description Only these workflows (repeat the parameter for several, at most 100). Default: every workflow of the organization. */
                workflow_id?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        report: components["schemas"]["CaseReport"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `from` or `to` not an ISO 8601 date or date-time, `from` not before `to`, a range over 366 days or over 2000 intervals, an `interval` other than hour, day or week, a `workflow_id` that is not a positive integer or more than 100 of them, or an unknown query parameter. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSlaReport: {
        parameters: {
            query: {
                /** @description The cases created from this time on. */
                from: string;
                /** @description The cases created before this time. */
                to: string;
                /** @description Only this workflow's cases; every workflow with an SLA policy otherwise. */
                workflow_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        report: components["schemas"]["SlaReport"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization */
            404: components["responses"]["NotFound"];
            /** @description `from` or `to` missing or not an ISO 8601 timestamp, `from` not before `to`, a `workflow_id` that is not a positive integer, more than 2,000 cases in the range, or an unknown query parameter. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRetention: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The retention in force for the organization, its overrides and the deployment's defaults. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Retention"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putRetention: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutRetentionRequest"];
            };
        };
        responses: {
            /** @description The retention in force for the organization, its overrides and the deployment's defaults. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Retention"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description A key other than `runs_days`, `deliveries_days`, `closed_cases_days` and `audit_days`; a value that is not an integer or null; `runs_days` or `deliveries_days` outside 1..36500, `closed_cases_days` outside 0..36500, `audit_days` outside 90..36500; a body that is not a valid JSON object. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secrets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secrets: components["schemas"]["Secret"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `[A-Z][A-Z0-9_]{0,63}`; any other name is a 422. */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutSecretRequest"];
            };
        };
        responses: {
            /** @description The secret, without its value. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secret: components["schemas"]["Secret"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description A name that is not `[A-Z][A-Z0-9_]{0,63}`; `value` missing, not a string, empty or over 8,192 bytes; an unsupported key; a body that is not a valid JSON object. Or the organization already has as many secrets (a replaced one adds none) as `MAX_SECRETS_PER_ORGANIZATION` allows (`cap` and `limit` name it). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The secret's name; a malformed one names nothing (404). */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No secret of this name in the organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSso: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The setting, without the client secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sso: components["schemas"]["SsoConfiguration"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The organization has no single sign-on. */
            404: components["responses"]["NotFound"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putSso: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutSsoRequest"];
            };
        };
        responses: {
            /** @description The setting, without the client secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sso: components["schemas"]["SsoConfiguration"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Nothing was stored: an issuer that is not an `https` URL (or has a query, fragment or credentials), an empty `client_id` or `client_secret`, `email_domains` empty, over 50 or not lower-case domain names, a `default_role` other than `viewer`, `editor`, `admin`, a `required` that is not a boolean, an unsupported key, or a body that is not a valid JSON object. */
            422: components["responses"]["Unprocessable"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteSso: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The organization has no single sign-on. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    verifySsoDomains: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The setting, without the client secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sso: components["schemas"]["SsoConfiguration"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The organization has no single sign-on. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listStepTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The step types. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        step_types: {
                            /** @description The JSON Schema of the step's arguments, which a definition's steps of this type must match. */
                            arguments_schema: Record<string, unknown>;
                            /** @description Whether the step talks to the outside world (it runs outside any transaction, and again after a crash). */
                            external: boolean;
                            /** @description The step's key in a definition: `{"<type>": <arguments>}`. */
                            type: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscriptions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        subscriptions: components["schemas"]["Subscription"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSubscriptionRequest"];
            };
        };
        responses: {
            /** @description The subscription and its signing secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedSubscription"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `url` not an http(s) URL; `events` missing, empty, repeated or unknown; `workflow_ids` empty, repeated, not positive integers, more than 1,000, or naming a workflow outside the organization; an unsupported key; a body that is not a valid JSON object. Or the organization already has as many subscriptions as `MAX_SUBSCRIPTIONS_PER_ORGANIZATION` allows (`cap` and `limit` name it). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                subscriptionId: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The subscription does not exist, belongs to another organization, or was deleted. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                subscriptionId: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSubscriptionRequest"];
            };
        };
        responses: {
            /** @description The subscription after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        subscription: components["schemas"]["Subscription"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The subscription does not exist, belongs to another organization, or was deleted. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Nothing changed: an empty body; `url` null or not an http(s) URL; `events` null, empty, repeated or unknown; `workflow_ids` empty, repeated, not positive integers, more than 1,000, or naming a workflow outside the organization; an unsupported key; a body that is not a valid JSON object. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                /** @description How many attempts. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The subscription's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                subscriptionId: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: components["schemas"]["DeliveryAttempt"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The subscription does not exist, belongs to another organization, or was deleted. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            /** @description `limit` is not an integer from 1 to 1000, or an unknown query parameter was given. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retryDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The delivery's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                deliveryId: components["parameters"]["DeliveryId"];
                /** @description The subscription's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                subscriptionId: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued; no body. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The subscription does not exist, belongs to another organization, or was deleted. Or the delivery is not one of this subscription's. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The subscription is disabled: enable it first (nothing was sent). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    enableSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                subscriptionId: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription, active. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        subscription: components["schemas"]["Subscription"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The subscription does not exist, belongs to another organization, or was deleted. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    recoverDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                subscriptionId: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecoverDeliveriesRequest"];
            };
        };
        responses: {
            /** @description How many deliveries are being sent again. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        recovering: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The subscription does not exist, belongs to another organization, or was deleted. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `since` missing or not a strict ISO 8601 timestamp; an unsupported key; a body that is not a valid JSON object. The subscription is disabled: enable it first (nothing was sent). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateSubscriptionSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                subscriptionId: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new signing secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        signing_secret: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The subscription does not exist, belongs to another organization, or was deleted. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listTeams: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The teams. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        teams: components["schemas"]["Team"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createTeam: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTeamRequest"];
            };
        };
        responses: {
            /** @description The team. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        team: components["schemas"]["Team"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `name` missing, blank or over 200 characters, or the name of another team of the organization (whatever the case); `member_ids` names a user who is not an active user of the organization with a role of `agent` or stronger (`validation_errors` points at each); an unsupported key. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                teamId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such team in the organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    changeTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                teamId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeTeamRequest"];
            };
        };
        responses: {
            /** @description The team after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        team: components["schemas"]["Team"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such team in the organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description A name taken by another team, blank or too long; `member_ids` names a user who is not an active user of the organization with a role of `agent` or stronger (`validation_errors` points at each); an unsupported key. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: components["schemas"]["Token"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTokenRequest"];
            };
        };
        responses: {
            /** @description The token and its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `name` missing or not 1 to 200 characters, `scope` not `api` or `admin`, an unsupported key, or a body that is not a valid JSON object. Or the organization already has as many tokens (deleted ones not counted) as `MAX_TOKENS_PER_ORGANIZATION` allows (`cap` and `limit` name it). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                tokenId: components["parameters"]["TokenId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The token does not exist, belongs to another organization, or was already deleted. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description Start of the period (inclusive), strict ISO 8601 (`2026-11-01`, `2026-11-01T00:00:00Z`). Default: the first day of the current month, 00:00 UTC. */
                from?: string;
                /** @description End of the period (exclusive), strict ISO 8601 (`2026-11-01`, `2026-11-01T00:00:00Z`). Default: now. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage of the period. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        usage: components["schemas"]["Usage"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `from` or `to` is not an ISO 8601 timestamp, `from` is not before `to`, or an unknown query parameter was given. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        users: components["schemas"]["User"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserRequest"];
            };
        };
        responses: {
            /** @description The invited user. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: components["schemas"]["User"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `email` not an email address, `role` not one of the four, an unsupported key, or the organization already has a user with this address. Or the organization already has as many users as `MAX_USERS_PER_ORGANIZATION` allows (`cap` and `limit` name it). */
            422: components["responses"]["Unprocessable"];
            /** @description The organization has sent as many invitations in 24 hours as `MAX_INVITATIONS_PER_DAY` allows; `Retry-After` says when the next may go. */
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such user in the organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The user is the organization's last owner: an organization always keeps one. */
            422: components["responses"]["Unprocessable"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    changeUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeUserRequest"];
            };
        };
        responses: {
            /** @description The user with the new role. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: components["schemas"]["User"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such user in the organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `role` not one of the four, an unsupported key, or: The user is the organization's last owner: an organization always keeps one. */
            422: components["responses"]["Unprocessable"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCaseViews: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The views. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        views: components["schemas"]["CountedCaseView"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createCaseView: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCaseViewRequest"];
            };
        };
        responses: {
            /** @description The view. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        view: components["schemas"]["CaseView"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Sharing a view, or changing or deleting a shared view of someone else, takes an admin. */
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description A body field that is not valid (`validation_errors` names each; the filters as the case list's query validation says, below `/filters`), or a cap reached (50 views per person, 50 shared views per organization). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteCaseView: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                viewId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Sharing a view, or changing or deleting a shared view of someone else, takes an admin. */
            403: components["responses"]["Forbidden"];
            /** @description No such view, or another person's private view. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateCaseView: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                viewId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCaseViewRequest"];
            };
        };
        responses: {
            /** @description The view. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        view: components["schemas"]["CaseView"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Sharing a view, or changing or deleting a shared view of someone else, takes an admin. */
            403: components["responses"]["Forbidden"];
            /** @description No such view, or another person's private view. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description A body field that is not valid (`validation_errors` names each; the filters as the case list's query validation says, below `/filters`), or a cap reached (50 views per person, 50 shared views per organization). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWorkflowNames: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflows. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workflows: components["schemas"]["WorkflowName"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWorkflows: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflows. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workflows: components["schemas"]["Workflow"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowDefinition"];
            };
        };
        responses: {
            /** @description The new workflow. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workflow: components["schemas"]["Workflow"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Nothing was stored: `workflow_definition_invalid` with every problem in `validation_errors` (unknown keys, a bad attribute type, a default status declared again, duplicate statuses, an automation on an undeclared status or on `Error`, a malformed step, a number the attribute number rule refuses, ...); or a body that is not a valid JSON object, or holds text that cannot be stored. Or the organization already has as many workflows as `MAX_WORKFLOWS_PER_ORGANIZATION` allows (`cap` and `limit` name it). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflow. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workflow: components["schemas"]["Workflow"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replaceWorkflowDraft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowDefinition"];
            };
        };
        responses: {
            /** @description The workflow with its new draft. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workflow: components["schemas"]["Workflow"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Nothing was stored: `workflow_definition_invalid` with every problem in `validation_errors` (unknown keys, a bad attribute type, a default status declared again, duplicate statuses, an automation on an undeclared status or on `Error`, a malformed step, a number the attribute number rule refuses, ...); or a body that is not a valid JSON object, or holds text that cannot be stored. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEmailAddress: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The inbound address. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        email_address: components["schemas"]["EmailAddress"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist, belongs to another organization, or has no email address yet. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    generateEmailAddress: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The inbound address. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        email_address: components["schemas"]["EmailAddress"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The workflow is not published, or its case source is not `email`. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRequestForm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The form URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        form: components["schemas"]["RequestForm"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist, belongs to another organization, or has no form URL yet. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    generateRequestForm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The form URL. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        form: components["schemas"]["RequestForm"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The workflow is not published, or its case source is not `ticketing`. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    publishWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The published workflow. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workflow: components["schemas"]["Workflow"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSlaPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The policy. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sla_policy: components["schemas"]["SlaPolicy"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization, or it has no SLA policy. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putSlaPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SlaPolicySettings"];
            };
        };
        responses: {
            /** @description The policy as stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sla_policy: components["schemas"]["SlaPolicy"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Nothing was stored: `invalid request body` with every problem in `validation_errors`: no calendar of that name; an unknown priority or clock; a duration that is not a positive `P…D` / `PT…H…M…S` of at most 366 days and 8,784 hours; no target at all; a pause status not declared on the workflow's current definition (its draft), or listed twice; an unknown key. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteSlaPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization, or it has no SLA policy. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWorkflowTestRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestRunRequestBody"];
            };
        };
        responses: {
            /** @description The trace of the run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        test_run: {
                            /** @description The case as the run would leave it (a failed run parks it in `Error`). */
                            final: {
                                attributes: {
                                    [key: string]: unknown;
                                };
                                outcome: string | null;
                                status: string;
                            };
                            steps: {
                                case_outcome?: string;
                                changes?: {
                                    [key: string]: unknown;
                                };
                                duration_ms: number;
                                error?: string;
                                followed?: boolean;
                                /** @enum {string} */
                                outcome: "change" | "move" | "then" | "else" | "wait" | "close" | "fail" | "not_sent" | "sent" | "error";
                                /** @description JSON Pointer of the step in the definition, e.g. `/automations/Open/0/then/1`. */
                                path: string;
                                /** @description The request as it would go out, every secret value replaced by `[secret NAME]`. */
                                request?: {
                                    /** @description The body as sent: JSON when it is JSON, text otherwise. */
                                    body?: unknown;
                                    headers: {
                                        [key: string]: string;
                                    };
                                    method: string;
                                    url: string;
                                };
                                response?: {
                                    body: string;
                                    status: number;
                                };
                                seconds?: number;
                                to?: string;
                                /** @description The step type, or `if`. */
                                type: string;
                            }[];
                            /** @enum {string} */
                            stopped_because: "finished" | "closed" | "failed" | "error" | "move_limit" | "budget";
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Nothing ran: a key other than those documented, or one of the wrong type; `status` not declared or `Error`; `attributes_validation_failed` with `validation_errors`, as a new case would get; `workflow_definition_invalid` with `validation_errors` pointing into a draft that today's rules refuse; `definition: "published"` while the workflow is not published. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    unpublishWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The unpublished workflow. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workflow: components["schemas"]["Workflow"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWorkflowVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The versions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        versions: components["schemas"]["WorkflowVersionSummary"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWorkflowVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A version number of the workflow. Anything but a positive integer below 2^31 names nothing and is answered 404. */
                version: components["parameters"]["WorkflowVersion"];
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        version: components["schemas"]["WorkflowVersion"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist, belongs to another organization, or was never published as that version. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    restoreWorkflowVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A version number of the workflow. Anything but a positive integer below 2^31 names nothing and is answered 404. */
                version: components["parameters"]["WorkflowVersion"];
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflow with its restored draft. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workflow: components["schemas"]["Workflow"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist, belongs to another organization, or was never published as that version. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The version's definition does not pass today's rules (`workflow_definition_invalid` with every problem); the draft is unchanged. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook URL and token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: components["schemas"]["Webhook"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist, belongs to another organization, or has no webhook URL yet. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    generateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook URL and token. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: components["schemas"]["Webhook"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The workflow is not published, or its case source is not `direct`. */
            422: components["responses"]["Unprocessable"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhookVerification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The verification, without its secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        verification: components["schemas"]["WebhookVerification"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist, belongs to another organization, or its webhook requires no signature. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putWebhookVerification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutWebhookVerificationRequest"];
            };
        };
        responses: {
            /** @description The verification, without its secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        verification: components["schemas"]["WebhookVerification"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Nothing was stored: `validation_errors` lists every problem (a scheme that is not registered; a missing, empty or oversized secret; a Standard Webhooks secret that is not `whsec_` + base64; an option the scheme does not take; `hmac` without `header`; a bad option value, such as `tolerance_seconds` outside 1 to 3,600); or a body that is not a valid JSON object. */
            422: components["responses"]["Unprocessable"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhookVerification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The workflow does not exist, belongs to another organization, or its webhook requires no signature. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    receiveWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "*/*": Record<string, unknown>;
                "application/json": Record<string, unknown>;
            };
        };
        responses: {
            /** @description A duplicate delivery (`webhook_dedup`): the case an earlier delivery with the same key created within the window; nothing was created. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        case: components["schemas"]["WebhookCaseReceipt"];
                        /** @constant */
                        duplicate: true;
                    };
                };
            };
            /** @description The case was created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        case: components["schemas"]["WebhookCaseReceipt"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description The workflow id or token is wrong, or the workflow is no longer a published direct workflow (all the same 401, `invalid webhook URL`); or the workflow requires a signature (putWebhookVerification) and the request's is missing, malformed, wrong or stale (`signature verification failed`, checked before the body is parsed). No case is created. */
            401: components["responses"]["Unauthorized"];
            /** @description Body larger than 1 MB (1,048,576 bytes), or a JSON object with more than 1,000 top-level keys. No case is created. */
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            /** @description No case was created: the body is missing, empty, not valid JSON, nested deeper than 64 levels, not a JSON object, or holds text that cannot be stored (U+0000); or `attributes_validation_failed` with `validation_errors`, including a number too long written out (see the body). */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWorkflowCases: {
        parameters: {
            query?: {
                /** @description A JSON object (URL-encoded; at most 2,048 characters, nested at most 4 levels, with at most 20 array items in all, or a 422 at the offending value's pointer below `/attributes`): only cases whose attributes contain it. Nested objects match by containment too (`{"customer":{"tier":"gold"}}` matches a customer with more keys); an array matches an array holding those elements. */
                attributes?: string;
                /** @description Only cases created after this instant (ISO 8601 with offset; excluded itself). */
                created_after?: string;
                /** @description Only cases created before this instant (excluded itself). */
                created_before?: string;
                /** @description The `next_cursor` of the previous page (opaque). */
                cursor?: string;
                /** @description Page size. */
                limit?: number;
                /** @description Only live or only test cases. */
                mode?: "live" | "test";
                /** @description Full-text search (docs/search.md): words must all match (whole words and their common forms, case- and accent-insensitive), `inv*` matches a prefix (at least 2 letters or digits), `"exact phrase"` the words in order, `-word` excludes; numbers and identifiers (`A-1043`) match whole. At most 256 characters and 16 terms, and at least one term that must match (422 otherwise); empty is no filter. With `q` the cases come by relevance (subject, then attributes, then messages), then newest first. */
                q?: string;
                /** @description Only cases in this status, or in any of several comma-separated ones (`Open,Triage`). */
                status?: string;
                /** @description Only cases last changed after this instant (excluded itself). */
                updated_after?: string;
                /** @description Only cases last changed before this instant (excluded itself). */
                updated_before?: string;
            };
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of cases. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        cases: components["schemas"]["Case"][];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            /** @description An unknown query parameter, or a value that is not valid for it (`validation_errors` names each): a status list, mode, timestamp, `attributes` object, limit (1 to 200) or cursor. */
            422: components["responses"]["Unprocessable"];
            /** @description The organization already has `LIST_READS_PER_ORGANIZATION` (2 by default) list reads (lists and change feeds, cases API and admin API together) under way on this instance, and as many waiting, or its list reads have spent their share of database time on this instance (`LIST_READ_DATABASE_MS_PER_SECOND`): nothing was read. Ask again after `Retry-After` seconds. */
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries safe: within 24 hours, a request with the same key (per organization), the same workflow and the byte-identical body creates nothing and answers 201 with the case the first one created, plus `Idempotent-Replayed: true`. The same key with a different body or workflow is a 422. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        /** @description No body, or `{}`, is a case with the default subject and no attributes. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateCaseRequest"];
            };
        };
        responses: {
            /** @description The case was created (or, for a replayed `Idempotency-Key`, created earlier). */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        case: components["schemas"]["Case"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Nothing was created: an unsupported top-level key, `attributes` not an object, `mode` not `live`/`test`, `subject` over 1,000 characters; a body that is not valid JSON, empty, nested deeper than 64 levels, not a JSON object, or holds text that cannot be stored (U+0000); the workflow is not published or its case source is not `direct`; `attributes_validation_failed` with `validation_errors` (including a number in `attributes` too long written out, see `CreateCaseRequest`); an `Idempotency-Key` that is malformed or was used within 24 hours with a different body or workflow. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The case. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        case: components["schemas"]["Case"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The workflow or the case does not exist, belongs to another organization, or the case belongs to another workflow. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    changeCaseStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeStatusRequest"];
            };
        };
        responses: {
            /** @description The case after the move. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        case: components["schemas"]["Case"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The workflow or the case does not exist, belongs to another organization, or the case belongs to another workflow. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Nothing changed: `status` missing, not a string, or not 1 to 200 characters; an unsupported key; a body that is not a valid JSON object; a status the workflow does not declare; `Error`. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCaseAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                attachmentId: string;
                /** @description The case's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                caseId: components["parameters"]["CaseId"];
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    "Content-Disposition": components["headers"]["AttachmentDisposition"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The workflow, the case or the attachment does not exist, belongs to another organization, or the case belongs to another workflow. */
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCaseChanges: {
        parameters: {
            query?: {
                /** @description The `next_cursor` of the previous page (opaque); without it the feed starts at the oldest change still kept. */
                after?: string;
                /** @description At most this many cases per page. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of changed cases. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        cases: components["schemas"]["Case"][];
                        /** @description Pass as `after` for the next page. */
                        next_cursor: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The workflow does not exist or belongs to another organization. */
            404: components["responses"]["NotFound"];
            /** @description The cursor is older than what retention keeps: a case changed after it has since been purged. List the cases again and follow the feed from its start. */
            410: components["responses"]["Gone"];
            414: components["responses"]["UriTooLong"];
            /** @description An unknown query parameter, an `after` that is not a `next_cursor` of this feed, or a limit outside 1 to 200. */
            422: components["responses"]["Unprocessable"];
            /** @description The organization already has `LIST_READS_PER_ORGANIZATION` (2 by default) list reads (lists and change feeds, cases API and admin API together) under way on this instance, and as many waiting, or its list reads have spent their share of database time on this instance (`LIST_READ_DATABASE_MS_PER_SECOND`): nothing was read. Ask again after `Retry-After` seconds. */
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listOrganizations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The organizations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        organizations: components["schemas"]["Organization"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The operator API is disabled: the service was started without `OPERATOR_TOKEN`. */
            404: components["responses"]["NotFound"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOrganizationRequest"];
            };
        };
        responses: {
            /** @description The organization and its admin token. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedOrganization"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The operator API is disabled: the service was started without `OPERATOR_TOKEN`. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `name` missing or not 1 to 200 characters, `owner_email` not an email address, an unsupported key, or a body that is not a valid JSON object. */
            422: components["responses"]["Unprocessable"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteOrganizationSso: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The operator API is disabled (no `OPERATOR_TOKEN`), or the organization does not exist or has no single sign-on. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateEmailAddress: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new inbound address. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        email_address: components["schemas"]["EmailAddress"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The operator API is disabled (no `OPERATOR_TOKEN`), or the workflow does not exist or has no email address yet. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateRequestForm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new form URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        form: components["schemas"]["RequestForm"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The operator API is disabled (no `OPERATOR_TOKEN`), or the workflow does not exist or has no form URL yet. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workflow's id. Anything but a positive integer below 2^53 names nothing and is answered 404. */
                workflowId: components["parameters"]["WorkflowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new webhook URL and token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: components["schemas"]["Webhook"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The operator API is disabled (no `OPERATOR_TOKEN`), or the workflow does not exist or has no webhook URL yet. */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    requestSignInLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignInEmailRequest"];
            };
        };
        responses: {
            /** @description Taken; no body. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `email` not an email address, an unsupported key, or a body that is not a valid JSON object. */
            422: components["responses"]["Unprocessable"];
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description The request came from another origin, or without `Origin` and without the session's CSRF header. */
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
        };
    };
    liveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    metrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    readiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Postgres or Redis did not answer within 2 seconds: take this instance out of rotation. */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    caseEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (the same on every attempt). */
                "webhook-id": string;
                /** @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the subscription's `whsec_` secret; for 24 hours after a rotation, two of them, space-separated (new secret, then the replaced one). */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaseEvent"];
            };
        };
        responses: {
            /** @description Delivered. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within 10 seconds) is retried. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
