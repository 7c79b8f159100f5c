import type { Env } from './env.js';

/** What the configuration reference says of one variable; its default comes from env.ts itself. */
export interface EnvMeaning {
  /** What it does, in Markdown. */
  meaning: string;
  /** Said after the default (`(3 days)`), or what an unset optional variable means (`the socket address`). */
  defaultNote?: string;
}

/**
 * The meaning of every variable of Env, from which scripts/generate-configuration-doc.ts writes
 * docs/configuration.md (with the names, order and defaults read from env.ts). Every variable
 * needs its entry: a new one without it is a compile error here. Kept apart from env.ts so that
 * file stays the validation it is.
 */
export const ENV_MEANINGS: { readonly [Name in keyof Env]-?: EnvMeaning } = {
  PORT: { meaning: 'HTTP port' },
  HOST: { meaning: 'bind address', defaultNote: '(`127.0.0.1` under `npm run start:local`)' },
  DATABASE_URL: { meaning: 'Postgres connection string (required; `start:local` and `npm test` provide one when unset)' },
  DATABASE_READ_URL: { meaning: 'a streaming replica of `DATABASE_URL`\'s database for the reads that may lag a little: the case lists, the change feed, search, reports, exports and the audit list. An organization that changed something within `DATABASE_READ_MAX_LAG_MS` reads what the primary has; a replica too far behind, or down, is skipped with a log line. See [A read replica](deploying.md#a-read-replica)', defaultNote: 'every read goes to the primary' },
  REDIS_URL: { meaning: 'Redis connection string (required; as above)' },
  REDIS_PREFIX: { meaning: 'namespace of every Redis key and channel' },
  REDIS_CLUSTER: { meaning: '`true`: `REDIS_URL` names one node of a Redis Cluster, from which the others are found; every key the service uses works there (see [Redis Cluster](deploying.md#redis-cluster))' },
  PUBLIC_BASE_URL: { meaning: 'base of webhook and form URLs, and of the links digests and their confirmation mails carry', defaultNote: '`http://localhost:$PORT`' },
  OPERATOR_TOKEN: { meaning: 'bearer credential of the operator API; at least 16 characters', defaultNote: 'the operator API answers 404' },
  METRICS_TOKEN: { meaning: 'when set, `/metrics` needs `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); at least 16 characters', defaultNote: '`/metrics` is open' },
  TRUST_PROXY: { meaning: 'addresses (IPv4/IPv6 CIDRs or single addresses, comma-separated) of the load balancers whose `X-Forwarded-For` is believed; the client is the right-most address they did not add. Used by the per-address rate limit and the request log', defaultNote: 'the socket address' },
  TOKEN_ENCRYPTION_KEY: { meaning: '32 bytes (64 hex chars or base64) that encrypt webhook tokens, signing secrets and organization secrets at rest, with a key per purpose derived from it (required; `start:local` generates one into `.data/`)' },
  TOKEN_ENCRYPTION_OLD_KEYS: { meaning: 'earlier keys (comma-separated, each like `TOKEN_ENCRYPTION_KEY`), still accepted for decryption while `npm run rotate-encryption-key` re-encrypts every stored secret with `TOKEN_ENCRYPTION_KEY`' },
  LOG_LEVEL: { meaning: 'pino level (`fatal` … `trace`, `silent`)' },
  OUTBOUND_ALLOW_PRIVATE: { meaning: '`true` lets `http_request` steps and event deliveries reach loopback and private addresses. Otherwise those (IPv6 transition forms such as NAT64, 6to4 and Teredo included) are refused with the same message as a name that does not resolve, "the request could not be sent to that address"; a `LOG_LEVEL=debug` line says which it was' },
  ROLE: { meaning: '`all` (HTTP and workers), `api` (HTTP only) or `worker` (runs, deliveries and the retention purge only; it still listens on `PORT` for `/healthz`, `/readyz` and `/metrics`)' },
  DATABASE_POOL_SIZE: { meaning: 'Postgres connections per process' },
  DATABASE_CONNECT_TIMEOUT_MS: { meaning: 'how long a request waits for a connection before it gets a 503' },
  DATABASE_STATEMENT_TIMEOUT_MS: { meaning: 'how long Postgres lets one statement run, lock waits included (`statement_timeout` of every pooled connection, 100 to 30000): past it Postgres cancels the statement and frees its backend, and the request gets a 503 with `Retry-After` (reads and intake; migrations, the engine\'s run batches, retention purges and report folding are not bounded by it: a busy machine must delay their work, not cancel it). See [list-filters.md](list-filters.md)' },
  DATABASE_READ_MAX_LAG_MS: { meaning: 'a replica that has not yet replayed what the primary wrote this long ago (ms, 100 to 600000), or does not answer, is skipped (its reads go to the primary) until it catches up; also how long an organization\'s change keeps its reads off a replica that has not replayed it' },
  DATABASE_READ_WAIT_MS: { meaning: 'how long (ms, 0 to 5000) a read of an organization that changed something lately waits for the replica to replay the primary\'s position before it goes to the primary instead' },
  LIST_READS_PER_ORGANIZATION: { meaning: 'case list reads (the cases API\'s list and change feed, the admin case list) one organization has under way at once per process (1 to 100); as many more wait up to 1 s for their turn, the rest get a 429 with `Retry-After: 1`. Other organizations\' reads are never held back by it. See [list-filters.md](list-filters.md)' },
  LIST_READ_DATABASE_MS_PER_SECOND: { meaning: 'database time (ms) one organization\'s list reads earn per second per process (1 to 100000), saved up to `LIST_READ_DATABASE_BURST_MS`: each read is charged what it lasted, and once the balance is spent the organization\'s list reads get a 429 with `Retry-After` (the seconds its debt takes to earn back). Ordinary pages cost a few ms; this is for filters that cost seconds. See [list-filters.md](list-filters.md)' },
  LIST_READ_DATABASE_BURST_MS: { meaning: 'the most database time an organization\'s list reads save up (1 to 600000)' },
  WORKER_CONCURRENCY: { meaning: 'runs, and separately deliveries, under way per worker process (so also the outbound `http_request` calls and deliveries in flight); runs due together are stored in batches of up to 64 cases, which this bounds' },
  RUN_LEASE_MS: { meaning: 'how long a worker holds a run without renewing it (it renews every third of this); a dead worker\'s run is taken over after this plus 1 s' },
  DELIVERY_RETRY_BASE_MS: { meaning: 'first retry delay of an event delivery (then ×4 per attempt, capped at 6 h, jittered)' },
  DELIVERY_DISABLE_AFTER_MS: { meaning: 'a subscription whose deliveries fail this long without one success is disabled', defaultNote: '(3 days)' },
  RATE_LIMIT_PER_ADDRESS: { meaning: 'requests per minute from one source address (an IPv6 address\'s whole /64 counts as one), counted in Redis across instances (0: off)' },
  RATE_LIMIT_PER_CREDENTIAL: { meaning: 'requests per minute with one API, admin, operator or webhook token or form URL (the one the route authenticates with: `?token=` on the webhook, the secret in the path on form pages, the bearer token elsewhere), across instances (0: off)' },
  MAX_SUBSCRIPTIONS_PER_ORGANIZATION: { meaning: 'event subscriptions one organization may hold (deleted ones not counted, disabled ones counted); one more is a 422 naming the cap (`cap`, `limit`). It bounds what one organization\'s case writes inside an intake batch other tenants share: one delivery row per subscription and event' },
  MAX_WORKFLOWS_PER_ORGANIZATION: { meaning: 'workflows one organization may hold (422 past it); each has at most one form and one inbound mail address, so this caps those too' },
  MAX_SECRETS_PER_ORGANIZATION: { meaning: 'organization secrets (422 past it; replacing an existing one adds none)' },
  MAX_TOKENS_PER_ORGANIZATION: { meaning: 'API and admin tokens together, deleted ones not counted (422 past it)' },
  MAX_DIGESTS_PER_ORGANIZATION: { meaning: 'report digests (422 past it)' },
  MAX_USERS_PER_ORGANIZATION: { meaning: 'users one organization may hold; inviting one more is a 422 naming the cap (users single sign-on creates count, but are not refused)' },
  FORM_POSTS_PER_MINUTE: { meaning: 'posts per minute to one hosted request form, from all addresses together, across instances; past it a 429 page with `Retry-After` (0: off)' },
  RETENTION_RUNS_DAYS: { meaning: 'finished runs (succeeded, failed, superseded) are deleted this many days after they finished; decimal days allowed, more than 0 (an organization may override it, see [Purge schedule](deploying.md#purge-schedule))' },
  RETENTION_DELIVERIES_DAYS: { meaning: 'ended deliveries (delivered, or given up) and their attempts are deleted this many days after they ended, with their event once none of its deliveries remains; decimal days, more than 0' },
  RETENTION_CLOSED_CASES_DAYS: { meaning: 'cases `Closed` (and unchanged) for longer than this are deleted with their timeline, runs, events, deliveries and idempotency keys; decimal days; `0` keeps them' },
  RETENTION_PURGE_INTERVAL_MS: { meaning: 'how often the worker role runs a purge pass (one repeatable Bull job for all workers; at least 1000)' },
  SMTP_PORT: { meaning: 'port of the SMTP listener that takes email cases, in the `all` and `api` roles; `0` turns it off' },
  SMTP_HOST: { meaning: 'bind address of the SMTP listener', defaultNote: '`HOST`' },
  INBOUND_EMAIL_DOMAIN: { meaning: 'domain of every workflow\'s inbound address (`<secret>@INBOUND_EMAIL_DOMAIN`); point its MX record at the SMTP listeners' },
  SMTP_MAX_MESSAGE_BYTES: { meaning: 'largest message taken, in bytes as sent; a larger one is refused with `552 5.3.4` (at `MAIL FROM` when the client declares its size, else when it ends)', defaultNote: '(25 MiB)' },
  SMTP_DATA_TIMEOUT_MS: { meaning: 'how long a message may take from `DATA` to its end, waiting for one of the 4 messages in progress included, whatever its byte rate; then `421 4.4.2` and the connection closes (at least 1000)' },
  SMTP_CONNECTIONS_PER_ADDRESS: { meaning: 'SMTP connections open at once from one client address, per process (an IPv6 /64 counts as one address); past it `421 4.7.0` at the greeting. Behind a TCP balancer that hides the client\'s address every sender shares the balancer\'s: keep the client address (Kubernetes: `externalTrafficPolicy: Local`) or raise it to 50' },
  SMTP_MAX_REFUSED_RECIPIENTS: { meaning: 'recipients refused with `550 5.1.1` on one connection before its next `RCPT TO` gets `421 4.5.3` and the connection closes' },
  EMAIL_MESSAGES_PER_MINUTE: { meaning: 'messages per minute to one workflow\'s inbound address, from all senders together, across instances; past it `RCPT TO` answers `451 4.7.1` and the sending server tries again later (0: off)' },
  EMAIL_MAX_REPLIES_PER_CASE: { meaning: 'email replies one case takes; past it a reply is refused with `552 5.2.2`' },
  EMAIL_MAX_REPLY_BYTES_PER_CASE: { meaning: 'bytes one case\'s email replies (their fields as stored) and its files together may take; a reply that would go past it is refused with `552 5.2.2`', defaultNote: '(100 MiB)' },
  SMTP_TLS_CERT: { meaning: 'certificate chain that, with `SMTP_TLS_KEY`, turns on STARTTLS: either the PEM text itself (a value starting with `-----BEGIN`) or the path of a PEM file; both or neither', defaultNote: 'no STARTTLS' },
  SMTP_TLS_KEY: { meaning: 'private key of `SMTP_TLS_CERT`\'s certificate, in the same two forms; both or neither', defaultNote: 'no STARTTLS' },
  SMTP_RELAY_URL: { meaning: 'where report digests, their recipients\' confirmation mails, sign-in links and invitations are sent: `smtp://user:pass@host:port` or `smtps://...` (a secret, never logged); unset, the digest endpoints answer 422 and no sign-in link or invitation is mailed (`start:local` points it at its local mail sink)' },
  DIGEST_FROM: { meaning: 'the From address of digests' },
  DIGEST_CHECK_INTERVAL_MS: { meaning: 'how often the worker role looks for digests due (one repeatable Bull job for all workers; at least 1000); also how long a manual send may wait' },
  SSO_PENDING_CEILING: { meaning: 'single sign-ons begun in 10 minutes from all clients together, across instances (each keeps its state in Redis that long); past it a 429 page. Besides, 30 per client network (an IPv6 /48) in 15 minutes' },
  MAX_INVITATIONS_PER_DAY: { meaning: 'invitations one organization may send in 24 hours, across instances; past it a 429 with `Retry-After`' },
  SESSION_IDLE_TIMEOUT_MS: { meaning: 'a dashboard session ends after this long without a request', defaultNote: '(12 h)' },
  SESSION_MAX_AGE_MS: { meaning: 'a dashboard session ends this long after its sign-in', defaultNote: '(14 days)' },
  EXTENSIONS: { meaning: 'extensions to load at start ([extending.md](extending.md)): comma-separated module specifiers, each a package name (from the service\'s `node_modules`) or a path (from the working directory) of a module whose default export is the extension\'s Nest module. A module that cannot be loaded, or a step type named like another, stops the start' },
  DNS_SERVERS: { meaning: 'the DNS servers asked for the TXT records that verify single sign-on email domains (comma-separated `address` or `address:port`, IPv6 as `[address]:port`)', defaultNote: 'the system\'s resolvers' },
  SSO_DOMAIN_CHECK_INTERVAL_MS: { meaning: 'how often the worker role checks every verified single sign-on domain\'s TXT record again (one repeatable Bull job for all workers; at least 1000): a record gone means the domain loses its verification', defaultNote: '(daily)' },
  SHUTDOWN_GRACE_MS: { meaning: 'how long SIGTERM waits for in-flight requests and jobs (and SMTP transactions)' },
};
