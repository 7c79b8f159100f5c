import { useState } from 'preact/hooks';
import { ApiError, api, type AuditEntry, errorMessage, query } from '../api.ts';
import { Alert, DateTime, EmptyState, Field, Loading, PageHeader, TableScroll } from '../components.tsx';
import { useAction, useLoad, useTitle } from '../hooks.ts';

interface AuditPage {
  entries: AuditEntry[];
  next_cursor: string;
}

interface Filters {
  actor: string;
  action: string;
  target: string;
}

const NO_FILTERS: Filters = { actor: '', action: '', target: '' };
const PAGE_SIZE = 50;

const FIELDS: { key: keyof Filters; label: string; placeholder: string; hint: string }[] = [
  { key: 'actor', label: 'Actor', placeholder: 'token:12', hint: 'type:id, such as token:12 or operator:operator' },
  { key: 'action', label: 'Action', placeholder: 'workflow.published', hint: 'Such as workflow.published or token.created' },
  { key: 'target', label: 'Target', placeholder: 'workflow:7', hint: 'A type (workflow) or type:id (secret:CRM_KEY)' },
];

/** A refused filter says which and why (the service names each in `validation_errors`). */
function explained(error: unknown): never {
  if (error instanceof ApiError && error.validationErrors.length > 0) throw new Error(`The filters were refused: ${error.validationErrors.map((p) => p.error).join('; ')}.`);
  throw error;
}

function actorText(actor: AuditEntry['actor']): string {
  return actor.type === 'operator' ? 'Operator' : `${actor.name} (${actor.type} ${actor.id})`;
}

function summaryText(summary: AuditEntry['summary']): string {
  return Object.keys(summary).length === 0 ? '' : JSON.stringify(summary);
}

function EntriesTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <TableScroll label="Audit entries">
      <table class="table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">What changed</th>
            <th scope="col">Address</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <DateTime iso={entry.at} />
              </td>
              <td>{actorText(entry.actor)}</td>
              <th scope="row">
                <code>{entry.action}</code>
              </th>
              <td>
                <code>
                  {entry.target.type}:{entry.target.id}
                </code>
              </td>
              <td>
                <code class="audit__summary">{summaryText(entry.summary)}</code>
              </td>
              <td>{entry.address ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The audit log, newest first; entries recorded since are fetched after the page's cursor and put on top. */
export function AuditPage() {
  useTitle('Audit log');
  const [drafts, setDrafts] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [newer, setNewer] = useState<{ entries: AuditEntry[]; cursor: string } | null>(null);
  const page = useLoad(() => api.get<AuditPage>(`/audit${query({ ...filters, limit: PAGE_SIZE })}`).catch(explained), [filters]);
  const cursor = newer?.cursor ?? page.data?.next_cursor;
  const [found, setFound] = useState<number | null>(null);
  const loadNewer = useAction(async () => {
    const since = await api.get<AuditPage>(`/audit${query({ ...filters, after: cursor, limit: PAGE_SIZE })}`);
    setNewer({ entries: [...since.entries.reverse(), ...(newer?.entries ?? [])], cursor: since.next_cursor });
    setFound(since.entries.length);
  });
  const onSubmit = (event: Event) => {
    event.preventDefault();
    setNewer(null);
    setFound(null);
    setFilters({ actor: drafts.actor.trim(), action: drafts.action.trim(), target: drafts.target.trim() });
  };
  const entries = [...(newer?.entries ?? []), ...(page.data?.entries ?? [])];
  return (
    <>
      <PageHeader title="Audit log">
        <p class="page-header__lead">Every change made through the admin and operator API: who made it, what it changed and from where. Entries are never changed or deleted; retention removes the oldest.</p>
      </PageHeader>
      <section class="card" aria-labelledby="audit-filters">
        <h2 id="audit-filters" class="card__title">
          Filters
        </h2>
        <form class="form-row" onSubmit={onSubmit} noValidate>
          {FIELDS.map((field) => (
            <Field key={field.key} label={field.label} id={`audit-${field.key}`} hint={field.hint}>
              <input
                id={`audit-${field.key}`}
                class="input"
                type="text"
                autocomplete="off"
                value={drafts[field.key]}
                placeholder={field.placeholder}
                onInput={(e) => setDrafts({ ...drafts, [field.key]: e.currentTarget.value })}
              />
            </Field>
          ))}
          <div class="form-actions">
            <button type="submit" class="button button--primary">
              Apply filters
            </button>
          </div>
        </form>
      </section>
      {page.error && <Alert tone="error">{page.error}</Alert>}
      {page.loading && !page.data && <Loading />}
      {page.data && (
        <section class="stack" aria-labelledby="audit-entries">
          <h2 id="audit-entries" class="visually-hidden">
            Entries
          </h2>
          <div class="form-actions">
            <button type="button" class="button button--secondary" disabled={loadNewer.pending} onClick={() => void loadNewer.run()}>
              {loadNewer.pending ? 'Loading…' : 'Load newer entries'}
            </button>
            <p role="status" class="hint">
              {found === null ? `The ${PAGE_SIZE} newest entries at most.` : found === 0 ? 'No newer entries.' : `${found} newer ${found === 1 ? 'entry' : 'entries'} added on top.`}
            </p>
          </div>
          {loadNewer.error !== null && <Alert tone="error">{errorMessage(loadNewer.error)}</Alert>}
          {entries.length === 0 ? <EmptyState title="No entries">No change matches these filters.</EmptyState> : <EntriesTable entries={entries} />}
        </section>
      )}
    </>
  );
}
