import { useEffect, useRef, useState } from 'preact/hooks';
import { api, CASE_SOURCES, download, errorMessage, query, type Case, type CaseInList, type CasePage, type BuiltInCaseSource, type WorkflowName } from '../api.ts';
import { casework, exportUrl, jobFinished, PRIORITIES, signedInPerson, type BulkJob, type CaseChange, type ListFilters, type SavedView, type Team } from '../casework-api.ts';
import { useAssignables, type Assignables } from '../casework-pickers.ts';
import { Alert, Badge, DateTime, EmptyState, Field, Loading, PageHeader, Select, TableScroll } from '../components.tsx';
import { formProblems } from '../form-problems.tsx';
import { humanize } from '../format.ts';
import { useAction, useLoad, useTitle, useWorkflows, type Loaded } from '../hooks.ts';
import { Link, navigate } from '../router.tsx';
import { can, currentSession, roleAtLeast } from '../session.ts';
import { saveFile } from './case-email.tsx';
import { NeedsRolePage } from './not-found.tsx';
import { MY_CASES } from '../layout.tsx';

const PAGE_SIZE = 25;
/** The page's own address keeps days (`created_from`, `created_to`, UTC) as typed; the list takes instants. */
const FILTERS = ['q', 'workflow_id', 'status', 'mode', 'source', 'created_from', 'created_to', 'attributes', 'assignee', 'team_id', 'priority', 'watching', 'sort'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const DAY_MS = 86_400_000;

/** Search results come by relevance: the list refuses `sort` with `q`. */
const searching = (filters: Filters) => filters.q.trim() !== '';

/**
 * The admin list's parameters for the filters: a UTC day range becomes the instants around it
 * (both bounds exclude themselves), and a sort is dropped while searching.
 */
function listParams({ created_from, created_to, ...rest }: Filters): Record<string, string | undefined> {
  const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);
  const from = created_from ? dayStart(created_from) : NaN;
  const to = created_to ? dayStart(created_to) : NaN;
  return {
    ...rest,
    sort: searching({ created_from, created_to, ...rest }) ? undefined : rest.sort,
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

/** The filters as the list's parameters, without those left empty: what a view keeps, a bulk change sweeps and an export writes. */
function listFilters(filters: Filters): ListFilters {
  return Object.fromEntries(Object.entries(listParams(filters)).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
}

/** A view's list parameters back as the page's filters (its instants as the UTC days they bound). */
function filtersOfView(view: Record<string, unknown>): Filters {
  const filters = Object.fromEntries(FILTERS.map((key) => [key, view[key] === undefined || view[key] === null ? '' : String(view[key])])) as Filters;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  if (typeof view.created_after === 'string') filters.created_from = day(Date.parse(view.created_after) + 1);
  if (typeof view.created_before === 'string') filters.created_to = day(Date.parse(view.created_before) - DAY_MS);
  return filters;
}

const SORTS: [string, string][] = [
  ['', 'Newest first'],
  ['created_at', 'Oldest first'],
  ['-updated_at', 'Recently updated first'],
  ['updated_at', 'Least recently updated first'],
  ['-priority', 'Most urgent first'],
  ['priority', 'Least urgent first'],
];

/** Who a case may be filtered by assignee: the caller ("me", a person only), nobody, or a person by id. */
function assigneeOptions(assignables: Assignables): [string, string][] {
  const me = signedInPerson();
  return [['', 'Anyone or nobody'], ...(me ? [['me', 'Me'] as [string, string]] : []), ['none', 'Nobody'], ...assignables.people.map((p): [string, string] => [String(p.id), p.email])];
}

/** `assignables` is null for a caller who does not work cases: the casework filters are not offered. */
function FilterForm({ initial, workflows, assignables }: { initial: Filters; workflows: WorkflowName[]; assignables: Assignables | null }) {
  const [filters, setFilters] = useState(initial);
  useEffect(() => setFilters(initial), [JSON.stringify(initial)]);
  const set = (key: keyof Filters) => (value: string) => setFilters({ ...filters, [key]: value });
  const statuses = [...new Set(workflows.filter((w) => !filters.workflow_id || String(w.id) === filters.workflow_id).flatMap((w) => w.statuses))];
  const [attributesError, setAttributesError] = useState<string | null>(null);
  const apply = (event: Event) => {
    event.preventDefault();
    const problem = attributesProblem(filters.attributes);
    setAttributesError(problem);
    if (!problem) navigate(`/cases${query({ ...filters, attributes: filters.attributes.trim(), sort: searching(filters) ? '' : filters.sort })}`);
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
      {assignables && (
        <>
          <Field label="Assignee" id="filter-assignee">
            <Select id="filter-assignee" value={filters.assignee} onChange={set('assignee')} options={assigneeOptions(assignables)} />
          </Field>
          <Field label="Team" id="filter-team">
            <Select id="filter-team" value={filters.team_id} onChange={set('team_id')} options={[['', 'Any team or none'], ...assignables.teams.map((t): [string, string] => [String(t.id), t.name])]} />
          </Field>
          <Field label="Priority" id="filter-priority">
            <Select id="filter-priority" value={filters.priority} onChange={set('priority')} options={[['', 'Any priority'], ...PRIORITIES.map((p): [string, string] => [p, humanize(p)])]} />
          </Field>
          {/* Search results come best match first: no sort is offered while searching. */}
          {!searching(filters) && (
            <Field label="Sort" id="filter-sort">
              <Select id="filter-sort" value={filters.sort} onChange={set('sort')} options={SORTS} />
            </Field>
          )}
        </>
      )}
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
      {assignables && signedInPerson() && (
        <label class="filters__check">
          <input type="checkbox" checked={filters.watching === 'true'} onChange={(e) => set('watching')(e.currentTarget.checked ? 'true' : '')} />
          Only cases I watch
        </label>
      )}
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

/** The caller's views and the shared ones, each with how many cases it holds now, and saving the filters shown as a new one. */
function SavedViews({ views, current, filters }: { views: Loaded<SavedView[] | null>; current: string; filters: ListFilters }) {
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [said, setSaid] = useState('');
  const save = useAction(async () => {
    const view = await casework.saveView(name.trim(), filters, shared);
    setName('');
    setSaid(`View “${view.name}” saved.`);
    views.reload();
  });
  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (name.trim() === '') return setSaid('Name the view first.');
    void save.run();
  };
  const list = views.data ?? [];
  return (
    <aside class="views card" aria-labelledby="saved-views">
      <h2 id="saved-views" class="card__title">
        Saved views
      </h2>
      {views.error && <Alert tone="error">{views.error}</Alert>}
      {views.data && list.length === 0 && <p class="muted">No views yet.</p>}
      {list.length > 0 && (
        <nav aria-labelledby="saved-views">
          <ul class="views__list">
            {list.map((view) => {
              const href = `/cases${query(filtersOfView(view.filters))}`;
              return (
                <li key={view.id}>
                  <Link href={href} class="views__link" aria-current={href === current ? 'page' : undefined}>
                    <span class="views__name">
                      {view.name}
                      {view.shared && <span class="visually-hidden"> (shared)</span>}
                    </span>
                    <span class="views__count">
                      {view.count}
                      <span class="visually-hidden"> {view.count === 1 ? 'case' : 'cases'}</span>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      )}
      {can('createCaseView') && (
        <form class="views__save stack stack--tight" onSubmit={onSubmit} aria-label="Save the current filters as a view">
          <Field label="New view from these filters" id="view-name">
            <input id="view-name" class="input" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </Field>
          {/* Sharing a view with everyone is an admin's call (casework.md section 5). */}
          {roleAtLeast('admin') && (
            <label class="filters__check">
              <input type="checkbox" checked={shared} onChange={(e) => setShared(e.currentTarget.checked)} />
              Share with the organization
            </label>
          )}
          <div>
            <button type="submit" class="button button--secondary" disabled={save.pending}>
              Save view
            </button>
          </div>
          {save.error !== null && <Alert tone="error">{errorMessage(save.error)}</Alert>}
          <p class="muted" role="status">
            {said}
          </p>
        </form>
      )}
    </aside>
  );
}

/** The CSV of the cases the filters match: a plain link for a person (their cookie goes with it); fetched with the token and saved for an admin token. */
function ExportLink({ filters }: { filters: ListFilters }) {
  const fetchIt = useAction(async () => saveFile(await download(`/cases/export.csv${query(filters)}`), 'cases.csv'));
  if (currentSession().kind === 'person') {
    return (
      <a class="button button--secondary" href={exportUrl(filters)} download="cases.csv">
        Export CSV
      </a>
    );
  }
  return (
    <>
      <button type="button" class="button button--secondary" disabled={fetchIt.pending} onClick={() => void fetchIt.run()}>
        Export CSV
      </button>
      {fetchIt.error !== null && <Alert tone="error">{errorMessage(fetchIt.error)}</Alert>}
    </>
  );
}

type BulkField = 'status' | 'assignee_id' | 'team_id' | 'priority';
const BULK_FIELDS: [BulkField, string][] = [
  ['status', 'Status'],
  ['assignee_id', 'Assignee'],
  ['team_id', 'Team'],
  ['priority', 'Priority'],
];
const JOB_POLL_MS = 1_000;

function bulkValues(field: BulkField, statuses: string[], assignables: Assignables | undefined): [string, string][] {
  if (field === 'status') return statuses.filter((status) => status !== 'Error').map((status) => [status, status]);
  if (field === 'priority') return PRIORITIES.map((p) => [p, humanize(p)]);
  if (field === 'team_id') return [['', 'No team'], ...(assignables?.teams ?? []).map((t: Team): [string, string] => [String(t.id), t.name])];
  return [['', 'Nobody'], ...(assignables?.people ?? []).map((p): [string, string] => [String(p.id), p.email])];
}

/**
 * One change to every selected case, as a job the service works through: its progress is
 * polled and drawn in a progress bar, and the end said in a live region.
 */
function BulkChange({ selected, statuses, assignables, onDone }: { selected: number[]; statuses: string[]; assignables: Assignables | undefined; onDone: () => void }) {
  const [field, setField] = useState<BulkField>('status');
  const values = bulkValues(field, statuses, assignables);
  const [value, setValue] = useState('');
  const [job, setJob] = useState<BulkJob | null>(null);
  // Polling stops when the form goes (the job goes on at the service).
  const shown = useRef(true);
  useEffect(() => () => void (shown.current = false), []);
  const chosen = values.some(([v]) => v === value) ? value : (values[0]?.[0] ?? '');
  const run = useAction(async () => {
    const change: CaseChange = { [field]: field === 'assignee_id' || field === 'team_id' ? (chosen === '' ? null : Number(chosen)) : chosen };
    let current = await casework.bulk(selected, change);
    setJob(current);
    while (!jobFinished(current) && shown.current) {
      await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
      current = await casework.job(current.id);
      setJob(current);
    }
    onDone();
  });
  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (selected.length > 0) void run.run();
  };
  const finished = job !== null && jobFinished(job);
  return (
    <form class="bulk card" onSubmit={onSubmit} aria-labelledby="bulk-title">
      <h2 id="bulk-title" class="card__title">
        Change the selected cases
        <span class="card__subtitle">{selected.length} selected</span>
      </h2>
      <div class="form-row">
        <Field label="Change" id="bulk-field">
          <Select id="bulk-field" value={field} onChange={(next) => setField(next as BulkField)} options={BULK_FIELDS} />
        </Field>
        <Field label="To" id="bulk-value">
          <Select id="bulk-value" value={chosen} onChange={setValue} options={values} />
        </Field>
        <div class="form-row__submit">
          <button type="submit" class="button button--primary" disabled={selected.length === 0 || run.pending}>
            Apply to {selected.length} {selected.length === 1 ? 'case' : 'cases'}
          </button>
        </div>
      </div>
      {job && (
        <div class="bulk__progress">
          <progress aria-label="Bulk change progress" max={Math.max(job.total, 1)} value={job.done + job.failed} />
          <p role="status">
            {finished ? `Done: ${job.done} changed, ${job.failed} could not change.` : `Changing ${job.total} cases: ${job.done + job.failed} of ${job.total} done.`}
          </p>
        </div>
      )}
      {run.error !== null && <Alert tone="error">{refusal(run.error)}</Alert>}
    </form>
  );
}

/** A refusal in words: the service's reasons at each field of the change, not only "invalid request body". */
function refusal(error: unknown): string {
  const problems = formProblems(error, []);
  return typeof problems.error === 'string' ? problems.error : errorMessage(problems.error ?? error);
}

interface Selection {
  ids: Set<number>;
  set: (ids: number[], on: boolean) => void;
}

function CaseTable({ cases, names, selection }: { cases: CaseInList[]; names: Map<number, string>; selection: Selection | null }) {
  const allSelected = selection !== null && cases.every((c) => selection.ids.has(c.id));
  return (
    <TableScroll label="Cases">
      <table class="table" aria-describedby="cases-page-info">
        <thead>
          <tr>
            {selection && (
              <th scope="col" class="cell--check">
                <input type="checkbox" aria-label="Select every case on this page" checked={allSelected} onChange={(e) => selection.set(cases.map((c) => c.id), e.currentTarget.checked)} />
              </th>
            )}
            <th scope="col">Case</th>
            <th scope="col">Subject</th>
            <th scope="col">Workflow</th>
            <th scope="col">Status</th>
            <th scope="col">Assignee</th>
            <th scope="col">Priority</th>
            <th scope="col">Outcome</th>
            <th scope="col">Source</th>
            <th scope="col">Mode</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {cases.map((c) => (
            <tr key={c.id} class={c.mode === 'test' ? 'row--test' : undefined}>
              {selection && (
                <td class="cell--check">
                  <input type="checkbox" aria-label={`Select case #${c.id}`} checked={selection.ids.has(c.id)} onChange={(e) => selection.set([c.id], e.currentTarget.checked)} />
                </td>
              )}
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
              <td>{c.assignee?.email ?? <span class="muted">Nobody</span>}</td>
              <td>{humanize(c.priority)}</td>
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
  );
}

/**
 * A page of cases, with the pager (`goTo` opens the page after a cursor);
 * `selection` adds a checkbox to each row.
 */
function CaseResults(props: { cursor: string; goTo: (cursor: string) => void; names: Map<number, string>; empty: string; selection: Selection | null; page: Loaded<CasePage> }) {
  const { cursor, goTo, page } = props;
  // The cursors of the pages before this one, to go back.
  const [previous, setPrevious] = useState<string[]>([]);
  useEffect(() => {
    if (!cursor) setPrevious([]);
  }, [cursor]);
  return (
    <>
      {page.error && <Alert tone="error">{page.error}</Alert>}
      {page.loading && !page.data && <Loading />}
      {page.data && page.data.cases.length === 0 && <EmptyState title="No cases match">{cursor ? <p>This is past the last page.</p> : <p>{props.empty}</p>}</EmptyState>}
      {page.data && page.data.cases.length > 0 && <CaseTable cases={page.data.cases} names={props.names} selection={props.selection} />}
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
    </>
  );
}

function useSelection(): Selection & { clear: () => void } {
  const [ids, setIds] = useState<Set<number>>(new Set());
  return {
    ids,
    set: (changed, on) => {
      const next = new Set(ids);
      for (const id of changed) if (on) next.add(id);
      else next.delete(id);
      setIds(next);
    },
    clear: () => setIds(new Set()),
  };
}

export function CasesPage({ query: params }: { query: URLSearchParams }) {
  useTitle('Cases');
  const filters = filtersFrom(params);
  const cursor = params.get('cursor') ?? '';
  const key = JSON.stringify({ ...filters, cursor });
  const workflows = useWorkflows();
  const works = can('workCase');
  const page = useLoad(() => api.get<CasePage>(`/cases${query({ ...listParams(filters), cursor, limit: PAGE_SIZE })}`), [key]);
  const assignables = useAssignables([], works);
  const views = useLoad(() => (can('listCaseViews') ? casework.views() : Promise.resolve(null)), []);
  const selection = useSelection();
  const names = new Map((workflows.data ?? []).map((w) => [w.id, w.name]));
  const goTo = (next: string) => navigate(`/cases${query({ ...filters, cursor: next })}`);
  const chosen = listFilters(filters);
  const bulk = can('bulkChangeCases');
  const selectedStatuses = [...new Set((workflows.data ?? []).filter((w) => (page.data?.cases ?? []).some((c) => selection.ids.has(c.id) && c.workflow_id === w.id)).flatMap((w) => w.statuses))];
  const current = `/cases${query(filters)}`;

  return (
    <>
      <PageHeader title="Cases" actions={can('exportCases') && <ExportLink filters={chosen} />}>
        <p class="page-header__lead">{filters.q ? 'Best matches first: subject, then attributes, then email and comments; newest first among equals.' : 'Newest first unless sorted otherwise. Test cases are marked and never billed.'}</p>
        <CaseLists current="/cases" />
      </PageHeader>
      <div class={views.data ? 'with-side' : undefined}>
        {views.data && <SavedViews views={views} current={current} filters={chosen} />}
        <div class="stack">
          {workflows.data && <FilterForm initial={filters} workflows={workflows.data} assignables={works ? (assignables.data ?? null) : null} />}
          {bulk && selection.ids.size > 0 && (
            <BulkChange
              selected={[...selection.ids]}
              statuses={selectedStatuses}
              assignables={assignables.data}
              onDone={() => {
                page.reload();
                views.reload();
              }}
            />
          )}
          <CaseResults cursor={cursor} goTo={goTo} names={names} empty="Cases appear here as soon as they come in through the API, a webhook, email or a request form." selection={bulk ? selection : null} page={page} />
        </div>
      </div>
    </>
  );
}

/** Between the caller's cases and all of them, for a person who works cases. */
function CaseLists({ current }: { current: string }) {
  if (!can('workCase') || !signedInPerson()) return null;
  const lists: [string, string][] = [
    [MY_CASES, 'My cases'],
    ['/cases', 'All cases'],
  ];
  return (
    <nav aria-label="Case lists">
      <ul class="subnav">
        {lists.map(([href, label]) => (
          <li key={href}>
            <Link href={href} aria-current={href === current ? 'page' : undefined}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The cases assigned to the signed-in person, latest activity first: where an agent starts (casework.md section 7). */
export function MyCasesPage({ query: params }: { query: URLSearchParams }) {
  useTitle('My cases');
  const me = signedInPerson();
  const cursor = params.get('cursor') ?? '';
  const workflows = useWorkflows();
  const mine = { assignee: 'me', sort: '-updated_at' };
  const page = useLoad(() => (me && can('workCase') ? api.get<CasePage>(`/cases${query({ ...mine, cursor, limit: PAGE_SIZE })}`) : Promise.resolve({ cases: [], next_cursor: null })), [cursor]);
  const names = new Map((workflows.data ?? []).map((w) => [w.id, w.name]));
  if (!can('workCase')) return <NeedsRolePage role="agent" />;
  return (
    <>
      <PageHeader title="My cases">
        <p class="page-header__lead">Assigned to you, latest activity first.</p>
        <CaseLists current={MY_CASES} />
      </PageHeader>
      <div class="stack">
        {!me && <Alert tone="info">Cases are assigned to people: sign in as yourself, not with an admin token, to see yours.</Alert>}
        {me && (
          <CaseResults
            cursor={cursor}
            goTo={(next) => navigate(`${MY_CASES}${query({ cursor: next })}`)}
            names={names}
            empty="Nothing is assigned to you. Cases assigned to you by a person or an automation appear here."
            selection={null}
            page={page}
          />
        )}
      </div>
    </>
  );
}
