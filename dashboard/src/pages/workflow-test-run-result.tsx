import type { ComponentChildren } from 'preact';
import type { operations } from '../api-schema.generated.ts';
import { Badge, DetailList } from '../components.tsx';
import { prettyJson } from '../json.ts';

export type TestRun = operations['createWorkflowTestRun']['responses'][200]['content']['application/json']['test_run'];
type TestRunStep = TestRun['steps'][number];

const OUTCOME_TONES: Record<TestRunStep['outcome'], 'neutral' | 'green' | 'amber' | 'red' | 'blue' | 'violet' | 'teal'> = {
  change: 'blue',
  move: 'violet',
  then: 'teal',
  else: 'teal',
  wait: 'amber',
  close: 'green',
  fail: 'red',
  not_sent: 'neutral',
  sent: 'green',
  error: 'red',
};

/** A test run's answer (builder.md section 2): where it ended, each step it took, and the attributes it left; `nothingRan` says why when no step ran. */
export function TestRunResult({ run, headingRef, nothingRan }: { run: TestRun; headingRef: { current: HTMLHeadingElement | null }; nothingRan: string }) {
  return (
    <section class="card" aria-labelledby="test-run-result">
      <h2 id="test-run-result" class="card__title" tabIndex={-1} ref={headingRef}>
        Result: {run.steps.length} step{run.steps.length === 1 ? '' : 's'}
      </h2>
      <DetailList
        items={[
          ['Final status', run.final.status],
          ['Stopped because', run.stopped_because],
          ['Outcome', run.final.outcome ?? 'None'],
        ]}
      />
      {run.steps.length === 0 ? (
        <p class="muted">No step ran: {nothingRan}.</p>
      ) : (
        <ol class="test-run__steps" aria-label="Test run steps">
          {run.steps.map((step, n) => (
            <li key={n} class="test-run__step">
              <p class="test-run__step-head">
                <code>{step.path}</code> <span class="test-run__type">{step.type}</span> <Badge tone={OUTCOME_TONES[step.outcome]}>{step.outcome}</Badge>
              </p>
              <StepDetails step={step} />
            </li>
          ))}
        </ol>
      )}
      <h3 class="test-run__subtitle">Final attributes</h3>
      <pre class="code" tabIndex={0} aria-label="Final attributes">
        <code>{prettyJson(run.final.attributes)}</code>
      </pre>
    </section>
  );
}

function StepDetails({ step }: { step: TestRunStep }) {
  const facts: [string, ComponentChildren][] = [];
  if (step.to !== undefined) facts.push([step.outcome === 'close' ? 'Closes' : 'Moves to', `${step.to}${step.followed === false ? ' (not followed: the move limit is reached)' : ''}`]);
  if (step.case_outcome !== undefined) facts.push(['Case outcome', step.case_outcome]);
  if (step.seconds !== undefined) facts.push(['Waits', `${step.seconds} s (skipped in a test run)`]);
  if (step.changes !== undefined) facts.push(['Changes', <pre class="code code--small"><code>{prettyJson(step.changes)}</code></pre>]);
  if (step.request !== undefined) facts.push(['Request', <RequestShown request={step.request} />]);
  if (step.response !== undefined) facts.push(['Response', <ResponseShown response={step.response} />]);
  if (step.error !== undefined) facts.push(['Error', <span class="field-error">{step.error}</span>]);
  if (facts.length === 0) return null;
  return <DetailList rows items={facts} />;
}

function RequestShown({ request }: { request: NonNullable<TestRunStep['request']> }) {
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`);
  const text = [`${request.method} ${request.url}`, ...headers, ...(request.body === undefined ? [] : ['', typeof request.body === 'string' ? request.body : prettyJson(request.body)])].join('\n');
  return (
    <pre class="code code--small">
      <code>{text}</code>
    </pre>
  );
}

function ResponseShown({ response }: { response: NonNullable<TestRunStep['response']> }) {
  return (
    <>
      <p>Status {response.status}</p>
      {response.body !== '' && (
        <pre class="code code--small">
          <code>{response.body}</code>
        </pre>
      )}
    </>
  );
}
