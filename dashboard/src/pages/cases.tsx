import { useEffect, useState } from 'preact/hooks';
import { api, query, type Case, type CasePage, type Workflow } from '../api.ts';
import { Alert, Badge, DateTime, EmptyState, Field, Loading, PageHeader, Select, TableScroll } from '../components.tsx';
import { useLoad, useTitle } from '../hooks.ts';
import { Link, navigate } from '../router.tsx';

const PAGE_SIZE = 25;
const FILTERS = ['workflow_id', 'status', 'mode', 'source'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

export function SourceBadge({ source }: { source: Case['source_type'] }) {
  return <Badge tone={source === 'Webhook' ? 'violet' : 'blue'}>{source}</Badge>;
}

export function ModeBadge({ mode }: { mode: Case['mode'] }) {
  return mode === 'test' ? <Badge tone="amber">Test</Badge> : <span class="muted">Live</span>;
}

export function StatusBadge({ status }: { status: string }) {
  const tone = status === 'Closed' ? 'green' : status === 'Error' ? 'red' : status === 'Open' ? 'blue' : 'neutral';
  return <Badge tone={tone}>{status}</Badge>;
}

function filtersFrom(params: URLSearchParams): Filters {
  return Object.fromEntries(FILTERS.map((key) => [key, params.get(key) ?? ''])) as Filters;
}

function useWorkflows() {
  return useLoad(() => api.get<{ workflows: Workflow[] }>('/workflows').then((r) => r.workflows), []);
}

function FilterForm({ initial, workflows }: { initial: Filters; workflows: Workflow[] }) {
  const [filters, setFilters] = useState(initial);
  useEffect(() => setFilters(initial), [JSON.stringify(initial)]);
  const set = (key: keyof Filters) => (value: string) => setFilters({ ...filters, [key]: value });
  const statuses = [...new Set(workflows.filter((w) => !filters.workflow_id || String(w.id) === filters.workflow_id).flatMap((w) => w.statuses))];
  const apply = (event: Event) => {
    event.preventDefault();
    navigate(`/cases${query(filters)}`);
  };
  return (
    <form class="filters card" onSubmit={apply} aria-label="Filter cases">
      <Field label="Workflow" id="filter-workflow">
        <Select id="filter-workflow" value={filters.workflow_id} onChange={set('workflow_id')} options={[['', 'All workflows'], ...workflows.map((w): [string, string] => [String(w.id), `${w.name} (#${w.id})`])]} />
      </Field>
      <Field label="Status" id="filter-status">
        <Select id="filter-status" value={filters.status} onChange={set('status')} options={[['', 'Any status'], ...statuses.map((s): [string, string] => [s, s])]} />
      </Field>
      <Field label="Mode" id="filter-mode">
        <Select id="filter-mode" value={filters.mode} onChange={set('mode')} options={[['', 'Live and test'], ['live', 'Live'], ['test', 'Test']]} />
      </Field>
      <Field label="Source" id="filter-source">
        <Select id="filter-source" value={filters.source} onChange={set('source')} options={[['', 'Any source'], ['API', 'API'], ['Webhook', 'Webhook']]} />
      </Field>
      <div class="filters__actions">
        <button type="submit" class="button button--primary">
          Apply filters
        </button>
        <Link href="/cases" class="button button--ghost">
          Clear
        </Link>
      </div>
    </form>
  );
}

export function CasesPage({ query: params }: { query: URLSearchParams }) {
  useTitle('Cases');
  const filters = filtersFrom(params);
  const cursor = params.get('cursor') ?? '';
  const key = JSON.stringify({ ...filters, cursor });
  const workflows = useWorkflows();
  const page = useLoad(() => api.get<CasePage>(`/cases${query({ ...filters, cursor, limit: PAGE_SIZE })}`), [key]);
  // The cursors of the pages before this one, to go back.
  const [previous, setPrevious] = useState<string[]>([]);
  useEffect(() => {
    if (!cursor) setPrevious([]);
  }, [cursor]);
  const names = new Map((workflows.data ?? []).map((w) => [w.id, w.name]));
  const goTo = (next: string) => navigate(`/cases${query({ ...filters, cursor: next })}`);

  return (
    <>
      <PageHeader title="Cases">
        <p class="page-header__lead">Newest first. Test cases are marked and never billed.</p>
      </PageHeader>
      <div class="stack">
        {workflows.data && <FilterForm initial={filters} workflows={workflows.data} />}
        {page.error && <Alert tone="error">{page.error}</Alert>}
        {page.loading && !page.data && <Loading />}
        {page.data && page.data.cases.length === 0 && <EmptyState title="No cases match">{cursor ? <p>This is past the last page.</p> : <p>Cases appear here as soon as the API or a webhook creates them.</p>}</EmptyState>}
        {page.data && page.data.cases.length > 0 && (
          <TableScroll label="Cases">
            <table class="table" aria-describedby="cases-page-info">
              <thead>
                <tr>
                  <th scope="col">Case</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Workflow</th>
                  <th scope="col">Status</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Source</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {page.data.cases.map((c) => (
                  <tr key={c.id} class={c.mode === 'test' ? 'row--test' : undefined}>
                    <th scope="row">
                      <Link href={`/cases/${c.id}`}>#{c.id}</Link>
                    </th>
                    <td class="cell--wide">{c.subject}</td>
                    <td>
                      <Link href={`/workflows/${c.workflow_id}`}>{names.get(c.workflow_id) ?? `#${c.workflow_id}`}</Link>
                    </td>
                    <td>
                      <StatusBadge status={c.status} />
                    </td>
                    <td>{c.outcome ?? <span class="muted">—</span>}</td>
                    <td>
                      <SourceBadge source={c.source_type} />
                    </td>
                    <td>
                      <ModeBadge mode={c.mode} />
                    </td>
                    <td>
                      <DateTime iso={c.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {page.data && (cursor || page.data.next_cursor) && (
          <nav class="pager" aria-label="Pages of cases">
            <p id="cases-page-info" class="muted">
              Page {previous.length + 1} · {page.data.cases.length} case{page.data.cases.length === 1 ? '' : 's'}
            </p>
            <div class="pager__buttons">
              <button
                type="button"
                class="button button--secondary"
                disabled={!cursor}
                onClick={() => {
                  const back = previous.slice(0, -1);
                  const target = previous[previous.length - 1] ?? '';
                  setPrevious(back);
                  goTo(target);
                }}
              >
                Previous page
              </button>
              <button
                type="button"
                class="button button--secondary"
                disabled={!page.data.next_cursor}
                onClick={() => {
                  setPrevious([...previous, cursor]);
                  goTo(page.data!.next_cursor!);
                }}
              >
                Next page
              </button>
            </div>
          </nav>
        )}
      </div>
    </>
  );
}
