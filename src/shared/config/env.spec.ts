import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidEnvironmentError, validateEnv } from './env.js';

const KEY = 'a1'.repeat(32);
const REQUIRED = { DATABASE_URL: 'postgres://cis@db:5432/cis', REDIS_URL: 'redis://cache:6379', TOKEN_ENCRYPTION_KEY: KEY };

/** Boot with these variables fails with an InvalidEnvironmentError; returns its message. */
function refused(raw: Record<string, string | undefined>): string {
  let message: string | undefined;
  assert.throws(
    () => validateEnv(raw),
    (err: unknown) => {
      assert.ok(err instanceof InvalidEnvironmentError, `an InvalidEnvironmentError, got ${String(err)}`);
      message = err.message;
      return true;
    },
  );
  return message!;
}

/** The message names the variable and never contains the bad value (it may be a secret). */
function assertRefusedNaming(variable: string, value: string | undefined): void {
  const message = refused({ ...REQUIRED, [variable]: value });
  assert.ok(message.includes(variable), `"${message}" names ${variable}`);
  if (value) assert.ok(!message.includes(value), `"${message}" does not repeat the value`);
}

describe('validateEnv', () => {
  describe('refuses a bad value, naming the variable but never the value', () => {
    const rows: [string, string][] = [
      ['PORT', 'port-zz9-not-a-number'],
      ['PORT', '65536'],
      ['PORT', '80.5'],
      ['DATABASE_URL', 'mysql://admin:hunter2-secret@db/cis'],
      ['REDIS_URL', 'http://cache:6379/hunter2'],
      ['TOKEN_ENCRYPTION_KEY', 'too-short-key-hunter2'],
      ['TOKEN_ENCRYPTION_KEY', 'zz'.repeat(32)],
      ['OPERATOR_TOKEN', 'op-hunter2'],
      ['PUBLIC_BASE_URL', 'ftp://cases.example'],
      ['LOG_LEVEL', 'chatty-zz9'],
      ['OUTBOUND_ALLOW_PRIVATE', 'yes-zz9'],
      ['ROLE', 'scheduler-zz9'],
      ['REDIS_PREFIX', 'has space zz9'],
      ['DATABASE_POOL_SIZE', '5000'],
      ['METRICS_TOKEN', 'metrics-zz9'],
      ['TRUST_PROXY', '10.0.0.0/33'],
      ['TRUST_PROXY', '2001:db8::/129'],
      ['TRUST_PROXY', '10.0.0.0/8,lb.internal-zz9'],
      ['TRUST_PROXY', '10.0.0.0/8/9'],
      ['TRUST_PROXY', '10.0.0.0/-1'],
      ['DNS_SERVERS', 'dns.internal-zz9'],
      ['DNS_SERVERS', '192.0.2.53:99999'],
      ['DNS_SERVERS', '300.1.1.1'],
      ['DNS_SERVERS', '2001:db8::zz9'],
      ['DNS_SERVERS', '192.0.2.53,'],
      ['TOKEN_ENCRYPTION_OLD_KEYS', 'hunter2-not-a-key'],
      ['TOKEN_ENCRYPTION_OLD_KEYS', `${'b2'.repeat(32)},hunter2-not-a-key`],
      ['TOKEN_ENCRYPTION_OLD_KEYS', `${'b2'.repeat(32)},`],
      ['RETENTION_RUNS_DAYS', '0'],
      ['RETENTION_RUNS_DAYS', 'thirty-zz9'],
      ['RETENTION_DELIVERIES_DAYS', '-1'],
      ['RETENTION_DELIVERIES_DAYS', 'Infinity'],
      ['RETENTION_CLOSED_CASES_DAYS', '-0.5'],
      ['RETENTION_CLOSED_CASES_DAYS', '36501'],
      ['RETENTION_PURGE_INTERVAL_MS', '999'],
      ['RETENTION_PURGE_INTERVAL_MS', '1500.5'],
      ['SMTP_PORT', '70000'],
      ['INBOUND_EMAIL_DOMAIN', 'not a domain zz9'],
      ['INBOUND_EMAIL_DOMAIN', 'mail..example'],
      ['SMTP_MAX_MESSAGE_BYTES', '12'],
      ['SMTP_TLS_CERT', '-----BEGIN CERTIFICATE----- zz9'],
      ['MAX_SUBSCRIPTIONS_PER_ORGANIZATION', '0'],
      ['MAX_WORKFLOWS_PER_ORGANIZATION', '2.5'],
      ['MAX_TOKENS_PER_ORGANIZATION', 'zz9'],
    ];
    for (const [variable, value] of rows) it(`${variable}=${value}`, () => assertRefusedNaming(variable, value));
  });

  describe('refuses a missing required variable, naming it', () => {
    for (const variable of Object.keys(REQUIRED)) {
      it(variable, () => {
        assertRefusedNaming(variable, undefined);
        assertRefusedNaming(variable, '');
      });
    }
  });

  it('names every bad variable at once', () => {
    const message = refused({ ...REQUIRED, PORT: 'zz9', TOKEN_ENCRYPTION_KEY: undefined, DATABASE_URL: 'mysql://x' });
    for (const variable of ['PORT', 'TOKEN_ENCRYPTION_KEY', 'DATABASE_URL']) assert.ok(message.includes(variable), `"${message}" names ${variable}`);
  });

  it('applies the defaults of the configuration contract', () => {
    const env = validateEnv(REQUIRED);
    assert.equal(env.PORT, 3000);
    assert.equal(env.HOST, '0.0.0.0');
    assert.equal(env.PUBLIC_BASE_URL, 'http://localhost:3000');
    assert.equal(env.OPERATOR_TOKEN, undefined);
    assert.equal(env.LOG_LEVEL, 'info');
    assert.equal(env.OUTBOUND_ALLOW_PRIVATE, false);
    assert.equal(env.ROLE, 'all');
    assert.equal(env.REDIS_PREFIX, 'cis');
    assert.equal(env.DATABASE_URL, REQUIRED.DATABASE_URL);
    assert.equal(env.TOKEN_ENCRYPTION_KEY, KEY);
  });

  it('retention: 30 days of runs and deliveries, closed cases kept, a pass a minute; decimal days accepted', () => {
    const defaults = validateEnv(REQUIRED);
    assert.deepEqual(
      [defaults.RETENTION_RUNS_DAYS, defaults.RETENTION_DELIVERIES_DAYS, defaults.RETENTION_CLOSED_CASES_DAYS, defaults.RETENTION_PURGE_INTERVAL_MS],
      [30, 30, 0, 60000],
    );
    const shortened = validateEnv({ ...REQUIRED, RETENTION_RUNS_DAYS: '0.0007', RETENTION_DELIVERIES_DAYS: '1.5', RETENTION_CLOSED_CASES_DAYS: '0.0007', RETENTION_PURGE_INTERVAL_MS: '1000' });
    assert.deepEqual(
      [shortened.RETENTION_RUNS_DAYS, shortened.RETENTION_DELIVERIES_DAYS, shortened.RETENTION_CLOSED_CASES_DAYS, shortened.RETENTION_PURGE_INTERVAL_MS],
      [0.0007, 1.5, 0.0007, 1000],
    );
  });

  it('per-organization caps: 100 subscriptions, 500 workflows, 200 secrets, 200 tokens, 100 digests', () => {
    const env = validateEnv(REQUIRED);
    assert.deepEqual(
      [env.MAX_SUBSCRIPTIONS_PER_ORGANIZATION, env.MAX_WORKFLOWS_PER_ORGANIZATION, env.MAX_SECRETS_PER_ORGANIZATION, env.MAX_TOKENS_PER_ORGANIZATION, env.MAX_DIGESTS_PER_ORGANIZATION],
      [100, 500, 200, 200, 100],
    );
    assert.equal(validateEnv({ ...REQUIRED, MAX_SECRETS_PER_ORGANIZATION: '7' }).MAX_SECRETS_PER_ORGANIZATION, 7);
  });

  it('email intake: the listener on 2525 at HOST, addresses @localhost, 25 MiB messages, no TLS', () => {
    const env = validateEnv({ ...REQUIRED, HOST: '127.0.0.1' });
    assert.equal(env.SMTP_PORT, 2525);
    assert.equal(env.SMTP_HOST, '127.0.0.1');
    assert.equal(env.INBOUND_EMAIL_DOMAIN, 'localhost');
    assert.equal(env.SMTP_MAX_MESSAGE_BYTES, 26214400);
    assert.equal(env.SMTP_TLS_CERT, undefined);
    assert.equal(validateEnv({ ...REQUIRED, SMTP_PORT: '0', SMTP_HOST: '::1' }).SMTP_HOST, '::1');
    assertRefusedNaming('SMTP_TLS_KEY', '/etc/ssl/private/zz9.pem');
  });

  it('treats an empty string as unset', () => {
    const env = validateEnv({ ...REQUIRED, PORT: '', OPERATOR_TOKEN: '', LOG_LEVEL: '', PUBLIC_BASE_URL: '' });
    assert.equal(env.PORT, 3000);
    assert.equal(env.OPERATOR_TOKEN, undefined);
    assert.equal(env.LOG_LEVEL, 'info');
    assert.equal(env.PUBLIC_BASE_URL, 'http://localhost:3000');
  });

  it('PUBLIC_BASE_URL defaults to http://localhost:$PORT', () => {
    const env = validateEnv({ ...REQUIRED, PORT: '8080' });
    assert.equal(env.PORT, 8080);
    assert.equal(env.PUBLIC_BASE_URL, 'http://localhost:8080');
  });

  it('keeps a given PUBLIC_BASE_URL, without trailing slashes', () => {
    assert.equal(validateEnv({ ...REQUIRED, PUBLIC_BASE_URL: 'https://cases.example.com' }).PUBLIC_BASE_URL, 'https://cases.example.com');
    assert.equal(validateEnv({ ...REQUIRED, PUBLIC_BASE_URL: 'https://cases.example.com/intake//' }).PUBLIC_BASE_URL, 'https://cases.example.com/intake');
  });

  it('reads typed values from their text', () => {
    const env = validateEnv({
      ...REQUIRED,
      OUTBOUND_ALLOW_PRIVATE: 'true',
      OPERATOR_TOKEN: 'operator-token-of-32-characters!',
      ROLE: 'worker',
      DATABASE_POOL_SIZE: '5',
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
    assert.equal(env.OUTBOUND_ALLOW_PRIVATE, true);
    assert.equal(env.OPERATOR_TOKEN, 'operator-token-of-32-characters!');
    assert.equal(env.ROLE, 'worker');
    assert.equal(env.DATABASE_POOL_SIZE, 5);
    assert.equal(validateEnv({ ...REQUIRED, OUTBOUND_ALLOW_PRIVATE: 'false' }).OUTBOUND_ALLOW_PRIVATE, false);
  });

  it('REDIS_CLUSTER is false unless set to true, and refuses anything but true or false', () => {
    assert.equal(validateEnv(REQUIRED).REDIS_CLUSTER, false);
    assert.equal(validateEnv({ ...REQUIRED, REDIS_CLUSTER: 'true' }).REDIS_CLUSTER, true);
    assert.equal(validateEnv({ ...REQUIRED, REDIS_CLUSTER: 'false' }).REDIS_CLUSTER, false);
    assertRefusedNaming('REDIS_CLUSTER', 'cluster-zz9');
  });

  it('accepts TRUST_PROXY as comma-separated IPv4 and IPv6 addresses and CIDRs', () => {
    const value = '10.0.0.0/8, 192.0.2.7,2001:db8::/32 ,::1, ::ffff:10.1.2.3/128';
    assert.equal(validateEnv({ ...REQUIRED, TRUST_PROXY: value }).TRUST_PROXY, value);
  });

  it('accepts DNS_SERVERS as comma-separated IPv4 and IPv6 addresses, each with an optional port', () => {
    const value = '192.0.2.53, 127.0.0.1:5353,2001:db8::53 , [2001:db8::53]:5353';
    assert.equal(validateEnv({ ...REQUIRED, DNS_SERVERS: value }).DNS_SERVERS, value);
    assert.equal(validateEnv(REQUIRED).DNS_SERVERS, undefined);
  });

  it('TOKEN_ENCRYPTION_OLD_KEYS takes comma-separated hex or base64 keys', () => {
    const keys = `${'b2'.repeat(32)}, ${Buffer.alloc(32, 9).toString('base64')}`;
    assert.equal(validateEnv({ ...REQUIRED, TOKEN_ENCRYPTION_OLD_KEYS: keys }).TOKEN_ENCRYPTION_OLD_KEYS, keys);
    assert.equal(validateEnv(REQUIRED).TOKEN_ENCRYPTION_OLD_KEYS, undefined);
  });

  it('accepts postgresql:// and rediss:// URLs', () => {
    const env = validateEnv({ ...REQUIRED, DATABASE_URL: 'postgresql://db/cis', REDIS_URL: 'rediss://cache:6380' });
    assert.equal(env.DATABASE_URL, 'postgresql://db/cis');
    assert.equal(env.REDIS_URL, 'rediss://cache:6380');
  });

  it('ignores unrelated variables', () => {
    assert.equal(validateEnv({ ...REQUIRED, PATH: '/usr/bin', HOME: '/root' }).PORT, 3000);
  });
});
