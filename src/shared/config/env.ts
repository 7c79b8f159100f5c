import 'reflect-metadata';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { IsBoolean, IsEmail, IsIn, IsInt, IsNumber, IsOptional, IsPositive, IsString, IsUrl, Matches, Max, Min, MinLength, validateSync } from 'class-validator';
import { ENCRYPTION_KEY_PATTERN } from './encryption-key-format.js';
import { IsCap, IsCidrList, IsDnsServerList } from './env-validators.js';

/** A hundred years: the longest retention a setting or an override may ask for. */
export const MAX_RETENTION_DAYS = 36_500;

const toBoolean = ({ value }: { value: unknown }) => (value === undefined ? undefined : value === 'true' ? true : value === 'false' ? false : value);

/** Every environment variable the service reads, validated once at boot. Defaults live here and nowhere else. */
export class Env {
  @Type(() => Number) @IsInt() @Min(0) @Max(65535)
  PORT = 3000;

  @IsString() @MinLength(1)
  HOST = '0.0.0.0';

  @IsString() @Matches(/^postgres(ql)?:\/\//, { message: '$property must be a postgres:// URL' })
  DATABASE_URL: string;

  /** A streaming replica of DATABASE_URL's database for the reads that may lag (ReplicaReads; docs/deploying.md, "A read replica"). */
  @IsOptional() @IsString() @Matches(/^postgres(ql)?:\/\//, { message: '$property must be a postgres:// URL' }) DATABASE_READ_URL?: string;

  @IsString() @Matches(/^rediss?:\/\//, { message: '$property must be a redis:// URL' })
  REDIS_URL: string;

  /** Namespaces every Redis key and channel, so several deployments or test runs can share one Redis. */
  @IsString() @Matches(/^[A-Za-z0-9:_-]+$/)
  REDIS_PREFIX = 'cis';

  /** `true`: REDIS_URL names one node of a Redis Cluster, and the other nodes are found from it. */
  @Transform(toBoolean) @IsBoolean()
  REDIS_CLUSTER = false;

  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  PUBLIC_BASE_URL?: string;

  @IsOptional() @IsString() @MinLength(16, { message: '$property must be at least 16 characters' })
  OPERATOR_TOKEN?: string;

  /** When set, `/metrics` needs `Authorization: Bearer <METRICS_TOKEN>`; unset, it is open. */
  @IsOptional() @IsString() @MinLength(16, { message: '$property must be at least 16 characters' })
  METRICS_TOKEN?: string;

  /**
   * Addresses (CIDRs, comma-separated, IPv4 or IPv6) of the load balancers whose
   * X-Forwarded-For is believed. Unset: the socket address is the client's address.
   */
  @IsOptional() @IsCidrList()
  TRUST_PROXY?: string;

  /** 32 bytes as 64 hex characters or base64. Required: webhook tokens are encrypted with it. */
  @IsString() @Matches(new RegExp(`^${ENCRYPTION_KEY_PATTERN}$`), { message: '$property must be 32 bytes, hex (64 chars) or base64' })
  TOKEN_ENCRYPTION_KEY: string;

  /** Earlier keys (comma-separated, each like TOKEN_ENCRYPTION_KEY), still opening what they sealed until the rotation rewrote it. */
  @IsOptional() @IsString()
  @Matches(new RegExp(`^\\s*${ENCRYPTION_KEY_PATTERN}\\s*(,\\s*${ENCRYPTION_KEY_PATTERN}\\s*)*$`), { message: '$property must be comma-separated 32-byte keys, hex (64 chars) or base64' })
  TOKEN_ENCRYPTION_OLD_KEYS?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @Transform(toBoolean) @IsBoolean()
  OUTBOUND_ALLOW_PRIVATE = false;

  /** `all` serves HTTP and runs workers; `api` and `worker` split them so each tier scales on its own. */
  @IsIn(['all', 'api', 'worker'])
  ROLE: 'all' | 'api' | 'worker' = 'all';

  @Type(() => Number) @IsInt() @Min(1) @Max(200)
  DATABASE_POOL_SIZE = 20;

  /** How long a request may wait for a database connection before it is answered 503. */
  @Type(() => Number) @IsInt() @Min(100) @Max(60000)
  DATABASE_CONNECT_TIMEOUT_MS = 3000;

  /**
   * How long Postgres lets one statement of the service run (lock waits included) before it
   * cancels it (`statement_timeout` of every pooled connection): the request is answered 503 and
   * its backend is free again. At most the client's own 30 s `query_timeout`, after which nobody
   * waits for the answer. Migrations, retention purges and report folding are not bounded by it.
   */
  @Type(() => Number) @IsInt() @Min(100) @Max(30000)
  DATABASE_STATEMENT_TIMEOUT_MS = 5000;

  /** A replica that has not replayed what the primary wrote this long ago (ms), or does not answer, is skipped until it catches up. */
  @Type(() => Number) @IsInt() @Min(100) @Max(600000) DATABASE_READ_MAX_LAG_MS = 5000;

  /** How long (ms) a read of an organization that changed something lately waits for the replica to replay the primary's position. */
  @Type(() => Number) @IsInt() @Min(0) @Max(5000) DATABASE_READ_WAIT_MS = 200;

  /**
   * Case list reads (lists and change feeds, both APIs) one organization has under way at once on
   * an instance; a few more wait up to a second, the rest get 429: a filtered list can cost seconds
   * of a core (docs/list-filters.md), so this bounds the backends one tenant's lists hold.
   */
  @Type(() => Number) @IsInt() @Min(1) @Max(100)
  LIST_READS_PER_ORGANIZATION = 2;

  /**
   * Database time (ms) one organization's list reads earn per second on an instance, saved up to
   * LIST_READ_DATABASE_BURST_MS, each read charged what it lasted (then 429s): the bound above
   * caps the backends a tenant's reads hold, this how much of the time.
   */
  @Type(() => Number) @IsInt() @Min(1) @Max(100000)
  LIST_READ_DATABASE_MS_PER_SECOND = 25;

  /** See LIST_READ_DATABASE_MS_PER_SECOND: at least one read as long as DATABASE_STATEMENT_TIMEOUT_MS lets a statement run. */
  @Type(() => Number) @IsInt() @Min(1) @Max(600000)
  LIST_READ_DATABASE_BURST_MS = 5000;

  /**
   * Runs (and deliveries) a worker process keeps under way, which bounds the batches runs due
   * together are stored in: at 800 chains/s, 64 were too few (docs/deploying.md, "What one process does").
   */
  @Type(() => Number) @IsInt() @Min(1) @Max(1000)
  WORKER_CONCURRENCY = 128;

  /**
   * How long a worker holds a run without renewing it (every third of this): a dead worker's run
   * is taken over after this plus a second. Shorter risks a live worker losing its run to a long
   * pause (its request then sent twice); longer delays the takeover.
   */
  @Type(() => Number) @IsInt() @Min(1000) @Max(600000)
  RUN_LEASE_MS = 6000;

  /** First retry delay of a failed event delivery; each next one is 4 times longer (capped at 6 h), with jitter. */
  @Type(() => Number) @IsInt() @Min(10) @Max(300000)
  DELIVERY_RETRY_BASE_MS = 5000;

  /** A subscription whose deliveries fail this long without one success is disabled (3 days; tests shorten it). */
  @Type(() => Number) @IsInt() @Min(1000) @Max(2_592_000_000)
  DELIVERY_DISABLE_AFTER_MS = 259_200_000;

  /** Requests per minute from one source address, across all instances (0 turns the limit off). */
  @Type(() => Number) @IsInt() @Min(0)
  RATE_LIMIT_PER_ADDRESS = 60000;

  /** Requests per minute with one credential (API, admin or webhook token), across all instances (0: off). */
  @Type(() => Number) @IsInt() @Min(0)
  RATE_LIMIT_PER_CREDENTIAL = 30000;

  /**
   * Per-organization caps (organization-caps.ts): past them, creating one more is a 422. Each
   * subscription is a delivery row per event of the organization's, written by the intake
   * transaction other tenants' cases share, so its cap bounds that fan-out.
   */
  @IsCap() MAX_SUBSCRIPTIONS_PER_ORGANIZATION = 100;
  @IsCap() MAX_WORKFLOWS_PER_ORGANIZATION = 500;
  @IsCap() MAX_SECRETS_PER_ORGANIZATION = 200;
  @IsCap() MAX_TOKENS_PER_ORGANIZATION = 200;
  @IsCap() MAX_DIGESTS_PER_ORGANIZATION = 100;
  @IsCap() MAX_USERS_PER_ORGANIZATION = 1000;

  /** Posts per minute to one hosted request form from all addresses, across all instances (0: off): what a form URL passed around can cost. */
  @Type(() => Number) @IsInt() @Min(0)
  FORM_POSTS_PER_MINUTE = 60;

  /**
   * Retention defaults, in days (decimals allowed: tests and the bench shorten them to seconds);
   * an organization may override each (admin API). Finished runs, and ended deliveries with
   * their attempts, go this long after they finished.
   */
  @Type(() => Number) @IsNumber({ allowNaN: false, allowInfinity: false }) @IsPositive() @Max(MAX_RETENTION_DAYS)
  RETENTION_RUNS_DAYS = 30;

  @Type(() => Number) @IsNumber({ allowNaN: false, allowInfinity: false }) @IsPositive() @Max(MAX_RETENTION_DAYS)
  RETENTION_DELIVERIES_DAYS = 30;

  /** Cases Closed (and unchanged) for longer than this go with everything they hold; 0 keeps them. */
  @Type(() => Number) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(MAX_RETENTION_DAYS)
  RETENTION_CLOSED_CASES_DAYS = 0;

  /** How often a purge pass runs: one repeatable Bull job, taken by one of the workers each time. */
  @Type(() => Number) @IsInt() @Min(1000) @Max(86_400_000)
  RETENTION_PURGE_INTERVAL_MS = 60_000;

  /** The SMTP listener's port (API roles only); 0 turns email intake off. */
  @Type(() => Number) @IsInt() @Min(0) @Max(65535)
  SMTP_PORT = 2525;

  /** The SMTP listener's bind address; unset, it is HOST's. */
  @IsOptional() @IsString() @MinLength(1)
  SMTP_HOST?: string;

  /** The domain of every workflow's inbound address (`<secret>@INBOUND_EMAIL_DOMAIN`). */
  @Matches(/^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i, { message: '$property must be a domain name' })
  INBOUND_EMAIL_DOMAIN = 'localhost';

  /** The largest message the listener takes, in bytes as sent (SMTP SIZE); larger ones get `552 5.3.4`. */
  @Type(() => Number) @IsInt() @Min(1024) @Max(1073741824)
  SMTP_MAX_MESSAGE_BYTES = 26214400;

  /**
   * How long a message may take from DATA to its end, waiting for one of the messages in progress
   * included, whatever its byte rate (each byte resets the idle timeout): then `421 4.4.2` and
   * the connection closes. 25 MiB at 2 Mbit/s take about 100 s.
   */
  @Type(() => Number) @IsInt() @Min(1000) @Max(3_600_000)
  SMTP_DATA_TIMEOUT_MS = 120_000;

  /** Connections open at once from one address (an IPv6 /64 counts as one), per process; past it `421 4.7.0` at the greeting. */
  @Type(() => Number) @IsInt() @Min(1) @Max(1000)
  SMTP_CONNECTIONS_PER_ADDRESS = 10;

  /** Recipients refused (`550 5.1.1`) on one connection before its next RCPT TO gets `421 4.5.3` and the connection closes. */
  @Type(() => Number) @IsInt() @Min(1) @Max(1000)
  SMTP_MAX_REFUSED_RECIPIENTS = 5;

  /** Messages per minute to one workflow's inbound address from all senders, across all instances (0: off): what a flood of mail to it can cost. */
  @Type(() => Number) @IsInt() @Min(0)
  EMAIL_MESSAGES_PER_MINUTE = 120;

  /** Replies one case takes by email, and the bytes they may add to it (their stored fields and the case's files together); past either a reply is refused with `552 5.2.2`. */
  @Type(() => Number) @IsInt() @Min(1) @Max(100_000)
  EMAIL_MAX_REPLIES_PER_CASE = 200;

  @Type(() => Number) @IsInt() @Min(1024) @Max(10_737_418_240)
  EMAIL_MAX_REPLY_BYTES_PER_CASE = 104_857_600;

  /**
   * STARTTLS certificate chain and private key, each a PEM text or the path of a PEM file
   * (a value starting with `-----BEGIN` is the PEM itself). Both or neither.
   */
  @IsOptional() @IsString() @MinLength(1)
  SMTP_TLS_CERT?: string;

  @IsOptional() @IsString() @MinLength(1)
  SMTP_TLS_KEY?: string;

  /**
   * Where report digests, and their recipients' confirmation mails, are sent out:
   * `smtp://user:pass@host:port` or `smtps://...` (a secret: never logged). Unset, the digest
   * endpoints answer 422.
   */
  @IsOptional() @Matches(/^smtps?:\/\/[^\s]+$/, { message: '$property must be an smtp:// or smtps:// URL' })
  SMTP_RELAY_URL?: string;

  /** The From address of digests. */
  @IsOptional() @IsEmail({ require_tld: false })
  DIGEST_FROM = 'reports@localhost';

  /** How often workers look for digests due (one repeatable Bull job, taken by one worker each time). */
  @Type(() => Number) @IsInt() @Min(1000) @Max(3_600_000)
  DIGEST_CHECK_INTERVAL_MS = 60_000;

  /**
   * Single sign-ons begun in 10 minutes from all clients together, across all instances: each
   * keeps its pending state in Redis that long, so this bounds what a flood from many networks
   * can put there; past it, a 429 page.
   */
  @IsCap() SSO_PENDING_CEILING = 10_000;

  /** Invitations one organization may send in 24 hours (`POST /api/admin/v1/users`, owner_email): past it, a 429. */
  @IsCap() MAX_INVITATIONS_PER_DAY = 100;

  /** A dashboard session ends after this long without a request (docs/security.md). */
  @Type(() => Number) @IsInt() @Min(60_000) @Max(2_592_000_000)
  SESSION_IDLE_TIMEOUT_MS = 43_200_000;

  /** A dashboard session ends this long after its sign-in, however busy. */
  @Type(() => Number) @IsInt() @Min(60_000) @Max(2_592_000_000)
  SESSION_MAX_AGE_MS = 1_209_600_000;

  /** Extensions main.js loads (docs/extending.md): comma-separated module specifiers, each default-exporting its Nest module. */
  @IsOptional() @Matches(/^[^,\s]+(\s*,\s*[^,\s]+)*$/, { message: '$property must be comma-separated module specifiers' })
  EXTENSIONS?: string;

  /** The DNS servers asked for single sign-on domains' TXT records (comma-separated `address` or `address:port`, IPv6 `[address]:port`); unset: the system's. */
  @IsOptional() @IsDnsServerList()
  DNS_SERVERS?: string;

  /** How often the worker role checks every proven single sign-on domain's TXT record again (one repeatable Bull job for all workers). */
  @Type(() => Number) @IsInt() @Min(1000) @Max(604_800_000)
  SSO_DOMAIN_CHECK_INTERVAL_MS = 86_400_000;

  /** How long the process waits for in-flight requests and jobs on SIGTERM. */
  @Type(() => Number) @IsInt() @Min(0) @Max(600000)
  SHUTDOWN_GRACE_MS = 10000;
}

export class InvalidEnvironmentError extends Error {}

/** Validates the environment; the message names the bad variables, never their values (they may be secrets). */
export function validateEnv(raw: Record<string, string | undefined>): Env {
  const present = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  const env = plainToInstance(Env, present, { exposeDefaultValues: true });
  const problems = validateSync(env).map((e) => Object.values(e.constraints ?? {}).join('; '));
  if (problems.length) throw new InvalidEnvironmentError(`Invalid environment: ${problems.join(', ')}`);
  if ((env.SMTP_TLS_CERT === undefined) !== (env.SMTP_TLS_KEY === undefined)) {
    throw new InvalidEnvironmentError('Invalid environment: SMTP_TLS_CERT and SMTP_TLS_KEY must be set together');
  }
  env.PUBLIC_BASE_URL = (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  env.SMTP_HOST ??= env.HOST;
  return env;
}
