import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, BUILT_IN_STATUSES, errorMessage, type ValidationProblem, type Workflow } from '../api.ts';
import type { components } from '../api-schema.generated.ts';
import { Alert, Field, Loading, Select } from '../components.tsx';
import { FieldError } from '../form-problems.tsx';
import { useAction, useLoad } from '../hooks.ts';
import { jsonSyntaxError, parseJson, prettyJson } from '../json.ts';
import { TestRunResult, type TestRun } from './workflow-test-run-result.tsx';

type AttributeDeclaration = components['schemas']['AttributeDeclaration'];
type Which = 'draft' | 'published';
/** What the run executes: the starting status's automation, or the definition's `on_sla` steps of a kind (sla.md section 3). */
type Runs = 'status' | NonNullable<components['schemas']['TestRunRequestBody']['on_sla']>;
const RUNS: [Runs, string][] = [
  ['status', 'The starting status’s automation'],
  ['warning', 'The steps for an SLA warning'],
  ['breached', 'The steps for an SLA breach'],
];

/** The statuses and attribute schema a run starts from: the draft's, or the published version's. */
interface Definition {
  statuses: string[];
  attributes: Record<string, AttributeDeclaration>;
}

const FORMAT_EXAMPLES: Record<NonNullable<AttributeDeclaration['format']>, string> = { email: 'someone@example.com', uri: 'https://example.com/', 'date-time': '2026-01-31T09:00:00Z', date: '2026-01-31' };

/** A value each declaration accepts, so that a first test run passes validation as it stands. */
function exampleValue(declaration: AttributeDeclaration): unknown {
  if (declaration.enum && declaration.enum.length > 0) return declaration.enum[0];
  switch (declaration.type) {
    case 'string':
      return declaration.format ? FORMAT_EXAMPLES[declaration.format] : 'example';
    case 'integer':
      return 1;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'example';
  }
}

function exampleAttributes(schema: Record<string, AttributeDeclaration>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema).map(([name, declaration]) => [name, exampleValue(declaration)]));
}

/** Checked here, so that a typo needs no round trip; the service checks the rest. */
function attributesProblem(text: string): string | null {
  const syntax = jsonSyntaxError(text);
  if (syntax) return `Not valid JSON: ${syntax}`;
  const value = parseJson(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? null : 'The sample attributes must be a JSON object.';
}

/** The refusal of a test run, placed where it belongs: under the attributes, the status, or as the definition's problems. */
interface Refusal {
  attributes: ValidationProblem[];
  status: string | undefined;
  definition: ValidationProblem[];
  other: string | null;
}

function refusalOf(error: unknown): Refusal | null {
  if (error === null) return null;
  const refusal: Refusal = { attributes: [], status: undefined, definition: [], other: null };
  if (!(error instanceof ApiError)) return { ...refusal, other: errorMessage(error) };
  if (error.message === 'attributes_validation_failed') return { ...refusal, attributes: error.validationErrors };
  if (error.message === 'workflow_definition_invalid') return { ...refusal, definition: error.validationErrors };
  const status = error.validationErrors.find((problem) => problem.path === '/status');
  return status ? { ...refusal, status: status.error } : { ...refusal, other: error.message };
}

/**
 * The Test run tab (builder.md §2): runs the draft or the published version on sample
 * attributes without storing anything, and shows each step the run would take.
 */
export function WorkflowTestRun({ workflow }: { workflow: Workflow }) {
  const id = useId();
  const [which, setWhich] = useState<Which>('draft');
  const published = useLoad(
    () => (workflow.published && workflow.version !== null ? api.get<{ version: { definition: Definition } }>(`/workflows/${workflow.id}/versions/${workflow.version}`).then((r) => r.version.definition) : Promise.resolve(null)),
    [workflow.id, workflow.version, workflow.published],
  );
  const definition: Definition | null | undefined = which === 'draft' ? workflow : published.data;
  const statuses = definition ? ['Open', ...definition.statuses.filter((s) => !BUILT_IN_STATUSES.includes(s)), 'Closed'] : ['Open'];
  const [status, setStatus] = useState('Open');
  const [runs, setRuns] = useState<Runs>('status');
  const [attributesText, setAttributesText] = useState('');
  const [edited, setEdited] = useState(false);
  const [sendRequests, setSendRequests] = useState(false);
  const [syntax, setSyntax] = useState<string | null>(null);
  const [result, setResult] = useState<TestRun | null>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);

  // Sample attributes follow the chosen definition's schema until they are edited by hand.
  useEffect(() => {
    if (!edited && definition) setAttributesText(prettyJson(exampleAttributes(definition.attributes)));
  }, [definition, edited]);
  useEffect(() => {
    if (!statuses.includes(status)) setStatus('Open');
  }, [statuses.join('\n')]);

  const run = useAction(async () => {
    setResult(null);
    // The attributes go as typed, so that numbers arrive exactly as written (see json.ts).
    const onSla = runs === 'status' ? '' : `"on_sla":${JSON.stringify(runs)},`;
    const body = `{"definition":${JSON.stringify(which)},"status":${JSON.stringify(status)},${onSla}"send_requests":${sendRequests},"attributes":${attributesText}}`;
    const { test_run } = await api.post<{ test_run: TestRun }>(`/workflows/${workflow.id}/test_runs`, { rawBody: body });
    setResult(test_run);
  });
  const refusal = refusalOf(run.error);
  useLayoutEffect(() => {
    if (result) resultHeading.current?.focus();
  }, [result]);

  const submit = (event: Event) => {
    event.preventDefault();
    const problem = attributesProblem(attributesText);
    setSyntax(problem);
    if (problem === null) run.run();
  };

  const attributeErrors = syntax ?? (refusal && refusal.attributes.length > 0 ? 'The attributes do not match the schema.' : undefined);
  const canPublished = workflow.published && workflow.version !== null;
  return (
    <div class="stack">
      <form class="card" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} class="card__title">
          Test run
        </h2>
        <p class="hint">Runs the automation on a sample case that is never stored: no case, run, timeline entry, event or usage is recorded.</p>
        <div class="form-row form-row--top">
          <Field id={`${id}-definition`} label="Definition" hint={canPublished ? undefined : 'Not published yet: only the draft can run.'}>
            <Select
              id={`${id}-definition`}
              value={which}
              onChange={(value) => setWhich(value as Which)}
              options={[['draft', 'Draft'], ...(canPublished ? [['published', `Published version ${workflow.version}`] as [string, string]] : [])]}
              aria-describedby={canPublished ? undefined : `${id}-definition-hint`}
            />
          </Field>
          <Field id={`${id}-runs`} label="Steps to run" hint="The SLA steps run as a warning or breach of one of the case's SLA clocks would start them, on a case in the starting status.">
            <Select id={`${id}-runs`} value={runs} onChange={(value) => setRuns(value as Runs)} options={RUNS} aria-describedby={`${id}-runs-hint`} />
          </Field>
          <Field id={`${id}-status`} label="Starting status" hint="Its automation runs first (unless SLA steps do); moves are followed into the next status's automation.">
            <Select id={`${id}-status`} value={status} onChange={setStatus} options={statuses.map((s) => [s, s])} aria-describedby={`${id}-status-hint${refusal?.status ? ` ${id}-status-error` : ''}`} aria-invalid={refusal?.status ? true : undefined} />
            <FieldError id={`${id}-status`} error={refusal?.status} />
          </Field>
        </div>
        {which === 'published' && published.loading && <Loading label="Loading the published version…" />}
        {published.error && which === 'published' && <Alert tone="error">{published.error}</Alert>}
        <div class="field">
          <label for={`${id}-attributes`}>Sample attributes (JSON)</label>
          <textarea
            id={`${id}-attributes`}
            class="input input--mono test-run__attributes"
            rows={Math.min(16, Math.max(4, attributesText.split('\n').length + 1))}
            value={attributesText}
            spellcheck={false}
            autocapitalize="off"
            autocomplete="off"
            onInput={(e) => {
              setAttributesText(e.currentTarget.value);
              setEdited(true);
            }}
            aria-describedby={`${id}-attributes-hint${attributeErrors ? ` ${id}-attributes-error` : ''}`}
            aria-invalid={attributeErrors ? true : undefined}
          />
          <p class="hint" id={`${id}-attributes-hint`}>
            Prefilled with an example of each attribute the schema declares. The run validates them as a new case's would be.
          </p>
          {attributeErrors && (
            <div class="field-error" id={`${id}-attributes-error`} role="alert">
              <p>{attributeErrors}</p>
              {refusal && refusal.attributes.length > 0 && <ProblemList problems={refusal.attributes} root="(the attributes)" />}
            </div>
          )}
          {edited && definition && (
            <button
              type="button"
              class="link-button"
              onClick={() => {
                setEdited(false);
                setSyntax(null);
              }}
            >
              Reset to the example
            </button>
          )}
        </div>
        <div class="field">
          <label class="test-run__send">
            <input id={`${id}-send`} type="checkbox" checked={sendRequests} onChange={(e) => setSendRequests(e.currentTarget.checked)} aria-describedby={`${id}-send-hint`} /> Send requests
          </label>
          <p class="hint" id={`${id}-send-hint`}>
            {sendRequests
              ? 'On: http_request steps really send their requests to the URLs in the definition (marked with the header X-Case-Intake-Test-Run: true), and their answers are shown and used.'
              : 'Off: http_request steps are not sent; each shows the request it would send. Turn on to really send them to the URLs (marked with the header X-Case-Intake-Test-Run: true).'}
          </p>
        </div>
        {refusal && refusal.definition.length > 0 && (
          <Alert tone="error" title="The definition does not pass today's rules: fix it before it can run">
            <ProblemList problems={refusal.definition} root="(root)" />
          </Alert>
        )}
        {refusal?.other && <Alert tone="error">{refusal.other}</Alert>}
        <div>
          <button type="submit" class="button button--primary" disabled={run.pending || definition === undefined}>
            {run.pending ? 'Running…' : 'Run test'}
          </button>
        </div>
      </form>
      {result && <TestRunResult run={result} headingRef={resultHeading} nothingRan={runs === 'status' ? 'the starting status has no automation' : `the definition has no steps for an SLA ${runs === 'warning' ? 'warning' : 'breach'}`} />}
    </div>
  );
}

function ProblemList({ problems, root }: { problems: ValidationProblem[]; root: string }) {
  return (
    <ul class="validation__list">
      {problems.map((problem, n) => (
        <li key={n} class="validation__item">
          <code class="validation__path">{problem.path === '' ? root : problem.path}</code> <span class="validation__error">{problem.error}</span>
        </li>
      ))}
    </ul>
  );
}
