import { useMemo } from 'preact/hooks';
import { api, CASE_SOURCES, type CaseReport, type WorkflowName } from '../api.ts';
import { HorizontalBars } from '../chart.tsx';
import { Alert, EmptyState, Loading, PageHeader, TableScroll } from '../components.tsx';
import { dayStart, lastDays, localIso } from '../days.ts';
import { formatCount, formatDay, formatLocalDateTime, formatSeconds } from '../format.ts';
import { useLoad, useTitle, useWorkflows } from '../hooks.ts';
import { Link, navigate } from '../router.tsx';
import { TimeChart, type TimeSeries } from '../time-chart.tsx';
import { SlaReportSection } from './sla-report.tsx';
import { can } from '../session.ts';

const HOUR_MS = 3_600_000;
type Range = '24h' | '7d' | '30d' | '90d' | '365d';
const RANGES: [Range, string, number, 'hour' | 'day' | 'week'][] = [
  ['24h', 'Last 24 hours', 24, 'hour'],
  ['7d', 'Last 7 days', 7 * 24, 'day'],
  ['30d', 'Last 30 days', 30 * 24, 'day'],
  ['90d', 'Last 90 days', 90 * 24, 'week'],
  ['365d', 'Last 365 days', 365 * 24, 'week'],
];
/** Okabe-Ito: distinguishable with any colour vision, and each with 3:1 contrast on white or paired with a marker. */
const COLOURS = { created: '#0072B2', closed: '#E69F00', errored: '#D55E00', API: '#0072B2', Webhook: '#009E73', Email: '#CC79A7', Form: '#56B4E9' } as const;

/** What the page shows, from its URL: a named range, or `from`/`to` (a digest's link), and the workflows. */
function reportQuery(params: URLSearchParams): { range: Range | null; search: URLSearchParams } {
  const search = new URLSearchParams();
  const named = RANGES.find(([range]) => range === params.get('range'));
  if (params.get('from') && params.get('to') && !named) {
    search.set('from', params.get('from')!);
    search.set('to', params.get('to')!);
    search.set('interval', (Date.parse(params.get('to')!) - Date.parse(params.get('from')!)) <= 48 * HOUR_MS ? 'hour' : 'day');
  } else {
    const [range, , hours, interval] = named ?? RANGES[2]!;
    // Whole calendar days in the browser's time zone, like Usage; the last 24 hours by the hour.
    const end = new Date(Math.ceil(Date.now() / HOUR_MS) * HOUR_MS);
    const { from, to } = interval === 'hour' ? { from: new Date(end.getTime() - hours * HOUR_MS), to: end } : lastDays(hours / 24, new Date());
    search.set('from', localIso(from));
    search.set('to', localIso(to));
    search.set('interval', interval);
    for (const id of params.getAll('workflow_id')) search.append('workflow_id', id);
    return { range, search };
  }
  for (const id of params.getAll('workflow_id')) search.append('workflow_id', id);
  return { range: null, search };
}

function Pickers({ query, range, workflows }: { query: URLSearchParams; range: Range | null; workflows: WorkflowName[] }) {
  const chosen = new Set(query.getAll('workflow_id'));
  const go = (next: URLSearchParams) => navigate(`/reports?${next.toString()}`);
  const pickRange = (value: Range) => {
    const next = new URLSearchParams({ range: value });
    for (const id of chosen) next.append('workflow_id', id);
    go(next);
  };
  const toggle = (id: string) => {
    const next = new URLSearchParams(query);
    next.delete('workflow_id');
    for (const other of chosen) if (other !== id) next.append('workflow_id', other);
    if (!chosen.has(id)) next.append('workflow_id', id);
    go(next);
  };
  return (
    <div class="report-pickers">
      <fieldset class="segmented">
        <legend class="visually-hidden">Range</legend>
        {RANGES.map(([value, label]) => (
          <label key={value} class="segmented__option">
            <input type="radio" name="range" value={value} checked={range === value} onChange={() => pickRange(value)} />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
      {workflows.length > 0 && (
        <fieldset class="report-workflows">
          <legend>Workflows {chosen.size === 0 && <span class="muted">(all)</span>}</legend>
          {workflows.map((w) => (
            <label key={w.id} class="checkbox">
              <input type="checkbox" checked={chosen.has(String(w.id))} onChange={() => toggle(String(w.id))} /> {w.name}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}

/** A day or week by its first day; an hour by its time. */
function intervalLabel(report: CaseReport, start: string): string {
  const at = new Date(start);
  return report.interval === 'hour' || dayStart(at).getTime() !== at.getTime() ? formatLocalDateTime(at) : formatDay(at);
}

function SeriesTable({ report }: { report: CaseReport }) {
  return (
    <TableScroll label="Cases per interval">
      <table class="table table--compact">
        <thead>
          <tr>
            <th scope="col">Start</th>
            {['Created', 'Closed', 'Errored', ...CASE_SOURCES.map((s) => `From ${s}`)].map((c) => (
              <th key={c} scope="col" class="num">{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.series.map((s) => (
            <tr key={s.start}>
              <th scope="row">{intervalLabel(report, s.start)}</th>
              {[s.created, s.closed, s.errored, ...CASE_SOURCES.map((source) => s.created_by_source[source])].map((n, i) => (
                <td key={i} class="num">{formatCount(n)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function Report({ report }: { report: CaseReport }) {
  const times = useMemo(() => report.series.map((s) => new Date(s.start)), [report]);
  const flow = useMemo<TimeSeries[]>(() => (['created', 'closed', 'errored'] as const).map((k) => ({ label: k[0]!.toUpperCase() + k.slice(1), colour: COLOURS[k], values: report.series.map((s) => s[k]) })), [report]);
  const bySource = useMemo<TimeSeries[]>(() => CASE_SOURCES.map((source) => ({ label: `From ${source}`, colour: COLOURS[source], values: report.series.map((s) => s.created_by_source[source]) })), [report]);
  const open = Object.entries(report.open_by_status);
  const stats: [string, string][] = [
    ['Created', formatCount(report.totals.created)],
    ['Closed', formatCount(report.totals.closed)],
    ['Errored', formatCount(report.totals.errored)],
    ['Reopened', formatCount(report.totals.reopened)],
    ['Time to close, median', formatSeconds(report.time_to_close_seconds.p50)],
    ['Time to close, 90th percentile', formatSeconds(report.time_to_close_seconds.p90)],
  ];
  return (
    <div class="stack">
      <section class="card" aria-labelledby="report-totals">
        <h2 id="report-totals" class="card__title">Totals <span class="card__subtitle">{formatLocalDateTime(new Date(report.from))} – {formatLocalDateTime(new Date(report.to))}</span></h2>
        <dl class="stats">
          {stats.map(([label, value]) => (
            <div key={label} class="stat"><dt class="stat__label">{label}</dt><dd class="stat__value">{value}</dd></div>
          ))}
        </dl>
      </section>
      <section class="card" aria-labelledby="report-flow">
        <h2 id="report-flow" class="card__title">Created, closed and errored <span class="card__subtitle">per {report.interval}</span></h2>
        <TimeChart title={`Cases created, closed and errored per ${report.interval}`} times={times} series={flow} />
        <h3 class="card__title">Created by source</h3>
        <TimeChart title={`Cases created per ${report.interval}, by source`} times={times} series={bySource} />
        <details class="disclosure">
          <summary>Show as a table</summary>
          <SeriesTable report={report} />
        </details>
      </section>
      <section class="card" aria-labelledby="report-open">
        <h2 id="report-open" class="card__title">Open cases by status <span class="card__subtitle">now</span></h2>
        {open.length ? (
          <HorizontalBars title="Open cases by status" series={[{ key: 'cases', label: 'Cases', tone: 'tone-cases' }]} groups={open.map(([status, n]) => ({ label: status, values: { cases: n } }))} />
        ) : (
          <EmptyState title="No open cases" />
        )}
      </section>
      <section class="card" aria-labelledby="report-errors">
        <h2 id="report-errors" class="card__title">Top errors</h2>
        {report.top_errors.length ? (
          <TableScroll label="Top errors">
            <table class="table table--compact">
              <thead><tr><th scope="col">Message</th><th scope="col" class="num">Failed runs</th></tr></thead>
              <tbody>
                {report.top_errors.map((e) => (
                  <tr key={e.message}><th scope="row">{e.message}</th><td class="num">{formatCount(e.count)}</td></tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : (
          <p class="muted">No run failed in this range.</p>
        )}
      </section>
    </div>
  );
}

export function ReportsPage({ query }: { query: URLSearchParams }) {
  useTitle('Reports');
  const { range, search } = reportQuery(query);
  const key = search.toString();
  const report = useLoad(() => api.get<{ report: CaseReport }>(`/reports/cases?${key}`).then((r) => r.report), [key]);
  const workflows = useWorkflows();
  return (
    <>
      <PageHeader title="Reports" actions={can('listDigests') && <Link href="/reports/digests" class="button button--secondary">Email digests</Link>}>
        <p class="page-header__lead">Live cases over time: created by source, closed, errored and reopened, time to close, open cases, the most frequent run failures, and the service levels met. Test cases never count.</p>
      </PageHeader>
      <Pickers query={query} range={range} workflows={workflows.data ?? []} />
      {report.error && <Alert tone="error">{report.error}</Alert>}
      {report.loading && !report.data && <Loading />}
      <div class="stack">
        {report.data && <Report report={report.data} />}
        <SlaReportSection from={search.get('from')!} to={search.get('to')!} workflowIds={search.getAll('workflow_id')} />
      </div>
    </>
  );
}
