import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { composeProblems, type DeployDocument, type KubeObject, kubernetesProblems, readDeployDocuments } from '../support/deploy-schemas.js';

// Compiled to build/test/e2e/: the repository is three levels up.
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Names whose values are secrets: they come from a Secret or an env file, never from deploy/. */
const SECRET_NAMES = ['DATABASE_URL', 'TOKEN_ENCRYPTION_KEY', 'TOKEN_ENCRYPTION_OLD_KEYS', 'OPERATOR_TOKEN', 'POSTGRES_PASSWORD'];
/** A URL with a password in it, or 32 bytes of hex: literal secrets, whatever key holds them. */
const SECRET_LOOKING = [/:\/\/[^/\s:@]+:[^/\s@]+@/, /\b[0-9a-fA-F]{64}\b/];

/** A parsed YAML value (deploy/ files have no TypeScript types): each test checks the fields it reads. */
type Yaml = any;

interface Container {
  name: string;
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: unknown } }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Yaml;
  livenessProbe?: Yaml;
  lifecycle?: Yaml;
  ports?: { name?: string; containerPort: number }[];
  resources?: Yaml;
  command?: string[];
}

const documents = readDeployDocuments(root);
const compose = only(documents.filter((d) => d.file === 'deploy/compose.yaml')).value as Yaml;
const kubernetes = documents.filter((d) => d.file.startsWith('deploy/kubernetes/') && !d.file.endsWith('kustomization.yaml'));
const objects = kubernetes.map((d) => d.value as KubeObject);

function only<T>(items: T[]): T {
  assert.equal(items.length, 1, `expected exactly one, found ${items.length}`);
  return items[0];
}

function object(kind: string, name: string): KubeObject & { spec: Yaml } {
  return only(objects.filter((o) => o.kind === kind && o.metadata.name === name)) as KubeObject & { spec: Yaml };
}

function containers(o: KubeObject & { spec: Yaml }): Container[] {
  return o.spec.template.spec.containers as Container[];
}

function roleOf(container: Container): string | undefined {
  return container.env?.find((e) => e.name === 'ROLE')?.value;
}

const config = () => (object('ConfigMap', 'case-intake') as Yaml).data as Record<string, string>;

describe('deployment files against their schemas', () => {
  it('deploy/compose.yaml is valid against the Compose specification schema', () => {
    assert.deepEqual(composeProblems(compose), []);
  });

  it('every object in deploy/kubernetes/ is valid against the Kubernetes OpenAPI schema of its kind, with no unknown field', () => {
    assert.ok(objects.length >= 6, `only ${objects.length} Kubernetes objects`);
    const problems = kubernetes.flatMap((d: DeployDocument) => kubernetesProblems(d.value).map((p) => `${d.file}: ${p}`));
    assert.deepEqual(problems, []);
  });

  it('kustomization.yaml lists every Kubernetes file except the migration Job, which runs first on its own', () => {
    const kustomization = only(documents.filter((d) => d.file === 'deploy/kubernetes/kustomization.yaml')).value as Yaml;
    assert.equal(kustomization.kind, 'Kustomization');
    const files = [...new Set(kubernetes.map((d) => d.file.replace('deploy/kubernetes/', '')))].filter((f) => f !== 'migrate-job.yaml');
    assert.deepEqual([...kustomization.resources].sort(), files.sort());
  });

  it('the schema checks refuse a typo: an unknown field, a wrong type, an unknown Compose key', () => {
    const api = structuredClone(object('Deployment', 'case-intake-api'));
    api.spec.template.spec.containers[0].readinesProbe = api.spec.template.spec.containers[0].readinessProbe;
    assert.deepEqual(kubernetesProblems(api), ['/spec/template/spec/containers/0/readinesProbe: unknown field (not in the apps/v1 Deployment schema)']);
    const worker = structuredClone(object('Deployment', 'case-intake-worker'));
    worker.spec.replicas = 'two';
    assert.match(kubernetesProblems(worker).join('\n'), /\/spec\/replicas: type \{"type":"integer"\}/);
    const broken = structuredClone(compose);
    broken.services.api.healthchek = broken.services.api.healthcheck;
    broken.services.worker.stop_grace_period = 'fifteen seconds';
    const found = composeProblems(broken).join('\n');
    assert.match(found, /\/services\/api: must NOT have additional properties \(healthchek\)/);
    assert.match(found, /\/services\/worker\/stop_grace_period: must match format "duration"/);
  });
});

describe('deploy/compose.yaml', () => {
  it('runs two API and two worker containers, each checked on /healthz', () => {
    for (const [service, role] of [['api', 'api'], ['worker', 'worker']]) {
      const s = compose.services[service];
      assert.equal(s.deploy.replicas, 2, service);
      assert.equal(s.environment.ROLE, role, service);
      assert.match(s.healthcheck.test.join(' '), /\/healthz/, service);
    }
  });

  it('starts them only after the one-shot migration succeeded on a healthy Postgres and Redis', () => {
    assert.deepEqual(compose.services.migrate.command, ['node', 'dist/shared/database/migrate.js']);
    assert.equal(compose.services.migrate.restart, 'no');
    assert.deepEqual(compose.services.migrate.depends_on, { postgres: { condition: 'service_healthy' } });
    for (const service of ['api', 'worker']) {
      assert.deepEqual(compose.services[service].depends_on, {
        migrate: { condition: 'service_completed_successfully' },
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      }, service);
    }
    assert.ok(compose.services.postgres.healthcheck && compose.services.redis.healthcheck);
  });

  it('gives SIGTERM more time than SHUTDOWN_GRACE_MS before Docker kills a container', () => {
    const example = envFile(readFileSync(join(root, 'deploy/compose.env.example'), 'utf8'));
    for (const service of ['api', 'worker']) {
      const grace = /^(\d+)s$/.exec(compose.services[service].stop_grace_period)?.[1];
      assert.ok(Number(grace) * 1000 > Number(example.SHUTDOWN_GRACE_MS), service);
    }
  });

  it('holds no secret: those come from compose.env and postgres.env, whose examples leave them empty', () => {
    for (const [name, service] of Object.entries<Yaml>(compose.services)) {
      const keys = Array.isArray(service.environment) ? service.environment.map((e: string) => e.split('=')[0]) : Object.keys(service.environment ?? {});
      assert.deepEqual(keys.filter((k: string) => SECRET_NAMES.includes(k)), [], name);
    }
    const examples = { ...envFile(readFileSync(join(root, 'deploy/compose.env.example'), 'utf8')), ...envFile(readFileSync(join(root, 'deploy/postgres.env.example'), 'utf8')) };
    for (const name of SECRET_NAMES) assert.equal(examples[name], '', `${name} in the env file examples`);
    // Postgres gets its password and nothing else: not the service's encryption key or tokens.
    assert.deepEqual(compose.services.postgres.env_file, ['postgres.env']);
  });
});

describe('deploy/kubernetes/', () => {
  const deployments = [['case-intake-api', 'api'], ['case-intake-worker', 'worker']] as const;

  it('has an API and a worker Deployment, ready on /readyz and alive on /healthz of the port they serve', () => {
    for (const [name, role] of deployments) {
      const container = only(containers(object('Deployment', name)));
      assert.equal(roleOf(container), role, name);
      // The API roles also take mail (SMTP_PORT); a worker serves only its probes.
      const smtp = role === 'api' ? [{ name: 'smtp', containerPort: 2525 }] : [];
      assert.deepEqual(container.ports, [{ name: 'http', containerPort: 3000 }, ...smtp], name);
      assert.deepEqual(container.readinessProbe.httpGet, { path: '/readyz', port: 'http' }, name);
      assert.deepEqual(container.livenessProbe.httpGet, { path: '/healthz', port: 'http' }, name);
    }
  });

  it('terminates gracefully: the grace period outlasts the preStop pause plus SHUTDOWN_GRACE_MS', () => {
    const shutdownMs = Number(config().SHUTDOWN_GRACE_MS);
    assert.ok(shutdownMs > 0);
    for (const [name] of deployments) {
      const deployment = object('Deployment', name);
      const command = only(containers(deployment)).lifecycle?.preStop?.exec?.command as string[] | undefined;
      const pauseMs = command ? Number(command[1]) * 1000 : 0;
      assert.ok(deployment.spec.template.spec.terminationGracePeriodSeconds * 1000 > pauseMs + shutdownMs, name);
    }
    // Only the API sits behind a load balancer that must drain it first.
    assert.deepEqual(only(containers(object('Deployment', 'case-intake-api'))).lifecycle.preStop.exec.command, ['sleep', '5']);
  });

  it('sizes memory above the peak RSS of docs/benchmarks.md (~250 MB, 240 MiB, with 1 MB bodies)', () => {
    for (const [name] of deployments) {
      const { requests, limits } = only(containers(object('Deployment', name))).resources;
      assert.deepEqual([requests.memory, limits.memory], ['256Mi', '512Mi'], name);
    }
  });

  it('has a migration Job, and a PodDisruptionBudget and a HorizontalPodAutoscaler that target the API Deployment', () => {
    assert.deepEqual(only(containers(object('Job', 'case-intake-migrate'))).command, ['node', 'dist/shared/database/migrate.js']);
    const api = object('Deployment', 'case-intake-api');
    const worker = object('Deployment', 'case-intake-worker');
    const selects = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
    const pdb = object('PodDisruptionBudget', 'case-intake-api').spec.selector.matchLabels;
    assert.ok(selects(pdb, api.spec.template.metadata.labels), 'the PodDisruptionBudget selects the API pods');
    assert.ok(!selects(pdb, worker.spec.template.metadata.labels), 'and not the workers');
    assert.deepEqual(object('HorizontalPodAutoscaler', 'case-intake-api').spec.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'case-intake-api' });
    assert.ok(selects(object('Service', 'case-intake-api').spec.selector, api.spec.template.metadata.labels));
  });

  it('runs every pod as the non-root node user, read-only, with no capability and no service account token', () => {
    for (const o of objects.filter((x) => x.kind === 'Deployment' || x.kind === 'Job')) {
      const pod = (o as Yaml).spec.template.spec;
      assert.equal(pod.automountServiceAccountToken, false, o.metadata.name);
      assert.deepEqual([pod.securityContext.runAsNonRoot, pod.securityContext.runAsUser], [true, 1000], o.metadata.name);
      for (const c of pod.containers) {
        assert.deepEqual(c.securityContext, { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } }, `${o.metadata.name}/${c.name}`);
      }
    }
  });

  it('holds no secret: they come from the Secret case-intake, never from a literal value or the ConfigMap', () => {
    for (const o of objects) assert.notEqual(o.kind, 'Secret', 'a Secret object is committed');
    assert.deepEqual(Object.keys(config()).filter((k) => SECRET_NAMES.includes(k) || k === 'REDIS_URL'), []);
    for (const o of objects.filter((x) => x.kind === 'Deployment' || x.kind === 'Job')) {
      for (const c of containers(o as KubeObject & { spec: Yaml })) {
        const literal = (c.env ?? []).filter((e) => SECRET_NAMES.includes(e.name) && !e.valueFrom?.secretKeyRef);
        assert.deepEqual(literal, [], `${o.metadata.name}/${c.name}`);
        const fromSecret = (c.envFrom ?? []).some((e) => e.secretRef?.name === 'case-intake') || (c.env ?? []).some((e) => e.valueFrom?.secretKeyRef);
        assert.ok(fromSecret, `${o.metadata.name}/${c.name} reads its secrets from the Secret`);
      }
    }
  });
});

describe('no literal secret anywhere under deploy/', () => {
  it('no document holds a URL with a password or a 64-hex-character key', () => {
    for (const d of documents) {
      const text = JSON.stringify(d.value);
      for (const pattern of SECRET_LOOKING) assert.doesNotMatch(text, pattern, d.file);
    }
  });
});

function envFile(text: string): Record<string, string> {
  return Object.fromEntries(
    text.split('\n').filter((line) => /^[A-Z_]+=/.test(line)).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}
