import { BUILT_IN_STATUSES, type Workflow } from '../api.ts';
import { Badge, DateTime, DetailList, EmptyState, TableScroll } from '../components.tsx';
import { compactJson, prettyJson } from '../json.ts';
import { SOURCE_LABELS } from './workflows.tsx';

/** Only direct workflows take webhook deliveries. */
function webhookDedupRow({ case_source, webhook_dedup }: Workflow): [string, string][] {
  if (case_source !== 'direct') return [];
  return [['Webhook duplicates', webhook_dedup ? `One case per ${webhook_dedup.key} within ${webhook_dedup.window_seconds} s` : 'Off: every webhook POST makes a case']];
}

export function WorkflowOverview({ workflow }: { workflow: Workflow }) {
  const attributes = Object.entries(workflow.attributes);
  const automations = Object.entries(workflow.automations);
  return (
    <div class="stack">
      <section class="card" aria-labelledby="overview-summary">
        <h2 id="overview-summary" class="card__title">
          Summary
        </h2>
        <DetailList
          items={[
            ['Workflow ID', workflow.id],
            ['Case source', SOURCE_LABELS[workflow.case_source] ?? workflow.case_source],
            ['Published version', workflow.version === null ? 'Never published' : `v${workflow.version}${workflow.published ? '' : ' (unpublished)'}`],
            ['Default outcome', workflow.default_outcome ?? 'Resolved (default)'],
            ['Sensitive data', workflow.sensitive_data ? 'Yes: undeclared attributes are refused' : 'No: undeclared attributes are kept'],
            ...webhookDedupRow(workflow),
            ['Created', <DateTime iso={workflow.created_at} />],
            ['Updated', <DateTime iso={workflow.updated_at} />],
          ]}
        />
        <p class="hint">This page shows the draft. Cases use the latest published version.</p>
      </section>

      <section class="card" aria-labelledby="overview-statuses">
        <h2 id="overview-statuses" class="card__title">
          Statuses
        </h2>
        <ul class="chips">
          {workflow.statuses.map((status) => (
            <li key={status} class="chip">
              <span>{status}</span>
              {BUILT_IN_STATUSES.includes(status) && <span class="chip__note">built-in</span>}
              {workflow.automations[status]?.length ? <span class="chip__note chip__note--run">runs {workflow.automations[status]!.length} step{workflow.automations[status]!.length === 1 ? '' : 's'}</span> : null}
            </li>
          ))}
        </ul>
      </section>

      <section class="card" aria-labelledby="overview-attributes">
        <h2 id="overview-attributes" class="card__title">
          Attribute schema
        </h2>
        {attributes.length === 0 ? (
          <p class="muted">No declared attributes: cases may carry any attributes.</p>
        ) : (
          <TableScroll label="Attribute schema">
            <table class="table table--compact">
              <thead>
                <tr>
                  <th scope="col">Attribute</th>
                  <th scope="col">Type</th>
                  <th scope="col">Required</th>
                  <th scope="col">Format</th>
                  <th scope="col">Allowed values</th>
                </tr>
              </thead>
              <tbody>
                {attributes.map(([name, declaration]) => (
                  <tr key={name}>
                    <th scope="row">
                      <code>{name}</code>
                    </th>
                    <td>
                      <Badge tone="blue">{declaration.type}</Badge>
                    </td>
                    <td>{declaration.required ? 'Required' : <span class="muted">Optional</span>}</td>
                    <td>{declaration.format ?? <span class="muted">—</span>}</td>
                    <td>{declaration.enum ? <code>{declaration.enum.map((v) => compactJson(typeof v === 'string' ? JSON.stringify(v) : v)).join(', ')}</code> : <span class="muted">Any</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section class="card" aria-labelledby="overview-automations">
        <h2 id="overview-automations" class="card__title">
          Automations
        </h2>
        {automations.length === 0 ? (
          <EmptyState title="No automations">
            <p>Add steps under a status in the definition to run them when a case enters that status.</p>
          </EmptyState>
        ) : (
          <div class="automations">
            {automations.map(([status, steps]) => (
              <div key={status} class="automation">
                <h3 class="automation__title">
                  When a case enters <strong>{status}</strong>
                  <span class="muted"> · {steps.length} step{steps.length === 1 ? '' : 's'}</span>
                </h3>
                <pre class="code" tabIndex={0}>
                  <code>{prettyJson(steps)}</code>
                </pre>
              </div>
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
