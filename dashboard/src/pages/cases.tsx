import { useEffect, useState } from 'preact/hooks';
import { api, CASE_SOURCES, query, type Case, type CaseInList, type CasePage, type BuiltInCaseSource, type WorkflowName } from '../api.ts';
import { Alert, Badge, DateTime, EmptyState, Field, Loading, PageHeader, Select, TableScroll } from '../components.tsx';
import { useLoad, useTitle, useWorkflows } from '../hooks.ts';
import { Link, navigate } from '../router.tsx';
import { can } from '../session.ts';

const PAGE_SIZE = 25;
/** The page's own address keeps days (`created_from`, `created_to`, UTC) as typed; the list takes instants. */
const FILTERS = ['q', 'workflow_id', 'status', 'mode', 'source', 'created_from', 'created_to', 'attributes'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const DAY_MS = 86_400_000;

/** The admin list's parameters for the filters: a UTC day range becomes the instants around it (both bounds exclude themselves). */
function listParams({ created_from, created_to, ...rest }: Filters): Record<string, string | undefined> {
  const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);
  const from = created_from ? dayStart(created_from) : NaN;
  const to = created_to ? dayStart(created_to) : NaN;
  return {
    ...rest,
    created_after: Number.isNaN(from) ? undefined : new Date(from - 1).toISOString(),
    created_before: Number.isNaN(to) ? undefined : new Date(to + DAY_MS).toISOString(),
  };
}

/** Why an attribute search is not usable, or null: it must be a JSON object (the list matches cases whose attributes contain it). */
function attributesProblem(text: string): string | null {
  if (text.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return null;
  } catch {
    // reported below
  }
  return 'Enter a JSON object, such as {"customer": {"tier": "gold"}}.';
}

const MATCH_FIELDS: Record<NonNullable<CaseInList['match']>['field'], string> = { subject: 'Subject', attributes: 'Attributes', email: 'Email', comment: 'Comment' };

/**
 * Where a case matched the search: the field, and the snippet with its `[[` `]]` marks as <mark>.
 * The snippet is the case's own text (a stranger's mail among it): rendered as text, never as markup.
 */
function MatchSnippet({ match }: { match: CaseInList['match'] }) {
  if (!match) return null;
  const parts = (match.snippet ?? '').split(/\[\[|\]\]/);
  return (
    <p class="match-snippet muted">
      <span class="match-snippet__field">{MATCH_FIELDS[match.field]}{match.field === 'attributes' && match.pointer ? ` ${match.pointer}` : ''}:</span>{' '}
      {parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part))}
    </p>
  );
}

const SOURCE_TONES = { API: 'blue', Webhook: 'violet', Email: 'teal', Form: 'neutral' } as const satisfies Record<BuiltInCaseSource, string>;

/** The built-in sources, and an extension's source type when the filter names one (a link from elsewhere). */
function sourceOptions(current: string): string[] {
  return current === '' || (CASE_SOURCES as readonly string[]).includes(current) ? [...CASE_SOURCES] : [...CASE_SOURCES, current];
}

/** A built-in source in its colour; an extension's source type in neutral. */
export function SourceBadge({ source }: { source: string }) {
  return <Badge tone={(SOURCE_TONES as Record<string, (typeof SOURCE_TONES)[BuiltInCaseSource]>)[source] ?? 'neutral'}>{source}</Badge>;
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

function FilterForm({ initial, workflows }: { initial: Filters; workflows: WorkflowName[] }) {
  const [filters, setFilters] = useState(initial);
  useEffect(() => setFilters(initial), [JSON.stringify(initial)]);
  const set = (key: keyof Filters) => (value: string) => setFilters({ ...filters, [key]: value });
  const statuses = [...new Set(workflows.filter((w) => !filters.workflow_id || String(w.id) === filters.workflow_id).flatMap((w) => w.statuses))];
  const [attributesError, setAttributesError] = useState<string | null>(null);
  const apply = (event: Event) => {
    event.preventDefault();
    const problem = attributesProblem(filters.attributes);
    setAttributesError(problem);
    if (!problem) navigate(`/cases${query({ ...filters, attributes: filters.attributes.trim() })}`);
  };
  return (
    <form class="filters card" onSubmit={apply} aria-label="Filter cases">
      <div class="field filters__wide">
        <label for="filter-q">Search</label>
        <input
          id="filter-q"
          class="input"
          type="search"
          maxLength={256}
          placeholder='Words, "a phrase", inv*, -excluded, ORD-99812'
          value={filters.q}
          onInput={(e) => set('q')(e.currentTarget.value)}
        />
      </div>
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
        <Select id="filter-source" value={filters.source} onChange={set('source')} options={[['', 'Any source'], ...sourceOptions(filters.source).map((source): [string, string] => [source, source])]} />
      </Field>
      <Field label="Created from (UTC)" id="filter-created-from">
        <input id="filter-created-from" class="input" type="date" value={filters.created_from} max={filters.created_to || undefined} onInput={(e) => set('created_from')(e.currentTarget.value)} />
      </Field>
      <Field label="Created to (UTC)" id="filter-created-to">
        <input id="filter-created-to" class="input" type="date" value={filters.created_to} min={filters.created_from || undefined} onInput={(e) => set('created_to')(e.currentTarget.value)} />
      </Field>
      <div class="field filters__wide">
        <label for="filter-attributes">Attributes contain</label>
        <input
          id="filter-attributes"
          class="input input--mono"
          type="text"
          spellcheck={false}
          placeholder='{"customer_email": "ada@example.com"}'
          value={filters.attributes}
          onInput={(e) => set('attributes')(e.currentTarget.value)}
          aria-invalid={attributesError ? true : undefined}
          aria-describedby={attributesError ? 'filter-attributes-error' : undefined}
        />
        {attributesError && (
          <p class="field-error" id="filter-attributes-error" role="alert">
            {attributesError}
          </p>
        )}
      </div>
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
  const page = useLoad(() => api.get<CasePage>(`/cases${query({ ...listParams(filters), cursor, limit: PAGE_SIZE })}`), [key]);
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
        <p class="page-header__lead">{filters.q ? 'Best matches first: subject, then attributes, then email; newest first among equals.' : 'Newest first. Test cases are marked and never billed.'}</p>
      </PageHeader>
      <div class="stack">
        {workflows.data && <FilterForm initial={filters} workflows={workflows.data} />}
        {page.error && <Alert tone="error">{page.error}</Alert>}
        {page.loading && !page.data && <Loading />}
        {page.data && page.data.cases.length === 0 && <EmptyState title="No cases match">{cursor ? <p>This is past the last page.</p> : <p>Cases appear here as soon as they come in through the API, a webhook, email or a request form.</p>}</EmptyState>}
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
                    <td class="cell--wide">
                      {c.subject}
                      <MatchSnippet match={c.match} />
                    </td>
                    <td>
                      {/* A viewer may not open a workflow: its name is plain text for them. */}
                      {can('getWorkflow') ? <Link href={`/workflows/${c.workflow_id}`}>{names.get(c.workflow_id) ?? `#${c.workflow_id}`}</Link> : (names.get(c.workflow_id) ?? `#${c.workflow_id}`)}
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
