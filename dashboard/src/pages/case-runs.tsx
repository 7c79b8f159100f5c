import { api, errorMessage, type CaseRun, type CaseRunsPage } from '../api.ts';
import { Alert, Badge, DateTime, Loading, TableScroll } from '../components.tsx';
import { useAction, type Loaded } from '../hooks.ts';

const STATE_TONES: Record<CaseRun['state'], 'neutral' | 'green' | 'amber' | 'red' | 'blue'> = {
  pending: 'neutral',
  running: 'blue',
  waiting: 'amber',
  succeeded: 'green',
  failed: 'red',
  superseded: 'neutral',
};

/** A page of the case's runs with their traces: the first, or the one after `after`. */
export function caseRunsPage(caseId: number, after?: string): Promise<CaseRunsPage> {
  return api.get<CaseRunsPage>(`/cases/${caseId}/runs${after ? `?after=${encodeURIComponent(after)}` : ''}`);
}

const none = <span class="muted">—</span>;

function RunTrace({ run }: { run: CaseRun }) {
  const headingId = `run-${run.id}`;
  return (
    <article class="run-trace" aria-labelledby={headingId}>
      <h3 id={headingId} class="run-trace__title">
        Run #{run.id} of {run.status_at_start}: <Badge tone={STATE_TONES[run.state]}>{run.state}</Badge>
      </h3>
      <p class="run-trace__meta">
        <span>Workflow version {run.workflow_version}</span>
        <span>
          Started {run.started_at ? <DateTime iso={run.started_at} /> : 'not yet'}
        </span>
        {run.finished_at && (
          <span>
            Finished <DateTime iso={run.finished_at} />
          </span>
        )}
      </p>
      {run.error && <p class="run-trace__error">Failed: {run.error}</p>}
      {run.steps.length === 0 ? (
        <p class="muted">No step executed.</p>
      ) : (
        <TableScroll label={`Steps of run #${run.id}`}>
          <table class="table">
            <thead>
              <tr>
                <th scope="col">Step</th>
                <th scope="col">Type</th>
                <th scope="col">Outcome</th>
                <th scope="col">Attempts</th>
                <th scope="col">HTTP status</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {run.steps.map((step, index) => (
                <tr key={index}>
                  <td>
                    <code>{step.path}</code>
                  </td>
                  <td>{step.type}</td>
                  <td>{step.outcome}</td>
                  <td>{step.attempts}</td>
                  <td>{step.http_status ?? none}</td>
                  <td>{step.error ?? none}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {run.steps_omitted > 0 && <p class="muted">{run.steps_omitted} later steps are not listed: a trace keeps a run's first 100 steps.</p>}
    </article>
  );
}

/** The case's runs, oldest first, each with the steps it executed; later pages are added below. */
export function CaseRuns({ caseId, runs }: { caseId: number; runs: Loaded<CaseRunsPage> }) {
  const more = useAction(async (after: string) => {
    const page = await caseRunsPage(caseId, after);
    runs.setData({ runs: [...(runs.data?.runs ?? []), ...page.runs], next_cursor: page.next_cursor });
  });
  return (
    <section class="card" aria-labelledby="case-runs">
      <h2 id="case-runs" class="card__title">
        Runs
      </h2>
      {runs.error && <Alert tone="error">{runs.error}</Alert>}
      {runs.loading && !runs.data && <Loading label="Loading the runs…" />}
      {runs.data && runs.data.runs.length === 0 && <p class="muted">No automation ran on this case.</p>}
      {runs.data && runs.data.runs.length > 0 && (
        <div class="stack">
          {runs.data.runs.map((run) => (
            <RunTrace key={run.id} run={run} />
          ))}
        </div>
      )}
      {more.error !== null && <Alert tone="error">{errorMessage(more.error)}</Alert>}
      {runs.data?.next_cursor && (
        <button type="button" class="button button--ghost" onClick={() => void more.run(runs.data!.next_cursor!)} disabled={more.pending}>
          Show later runs
        </button>
      )}
    </section>
  );
}
