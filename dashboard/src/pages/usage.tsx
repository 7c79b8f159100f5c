import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, query, type Counts, type Usage } from '../api.ts';
import { ColumnBars, HorizontalBars, type Series } from '../chart.tsx';
import { Alert, EmptyState, Loading, PageHeader, TableScroll } from '../components.tsx';
import { dayStart, lastDays, monthStart } from '../days.ts';
import { formatCount, formatDay, formatDayLines } from '../format.ts';
import { useLoad, useTitle, useWorkflows } from '../hooks.ts';

type Period = 'month' | '30d';
const PERIODS: [Period, string][] = [
  ['month', 'This month'],
  ['30d', 'Last 30 days'],
];

/** Periods are whole calendar days in the browser's time zone, as on the Reports page. */
function periodRange(period: Period, now: Date): { from: Date; to: Date } {
  return { from: period === 'month' ? monthStart(now) : lastDays(30, now).from, to: now };
}

/** The last 7 calendar days, today (so far) last. */
function lastSevenDays(now: Date): { day: Date; from: Date; to: Date }[] {
  return Array.from({ length: 7 }, (_, i) => {
    const start = dayStart(now, i - 6);
    return { day: start, from: start, to: new Date(Math.min(dayStart(now, i - 5).getTime(), now.getTime())) };
  });
}

function fetchUsage(from: Date, to: Date): Promise<Usage> {
  return api.get<{ usage: Usage }>(`/usage${query({ from: from.toISOString(), to: to.toISOString() })}`).then((r) => r.usage);
}

const LIVE: Series[] = [
  { key: 'cases', label: 'Live cases', tone: 'tone-cases' },
  { key: 'runs', label: 'Live runs', tone: 'tone-runs' },
];

function Totals({ counts, kind, notes }: { counts: Counts; kind: 'Live' | 'Test'; notes: [string, string] }) {
  return (
    <dl class="stats">
      {(['cases', 'runs'] as const).map((key, i) => (
        <div key={key} class="stat">
          <dt class="stat__label">
            {kind} {key}
          </dt>
          <dd class="stat__value">{formatCount(counts[key])}</dd>
          <dd class="stat__note">{notes[i]}</dd>
        </div>
      ))}
    </dl>
  );
}

function UsageCard({ id, title, subtitle, muted = false, children }: { id: string; title: string; subtitle?: string; muted?: boolean; children: ComponentChildren }) {
  return (
    <section class={muted ? 'card card--muted' : 'card'} aria-labelledby={id}>
      <h2 id={id} class="card__title">
        {title} {subtitle && <span class="card__subtitle">{subtitle}</span>}
      </h2>
      {children}
    </section>
  );
}

function PeriodPicker({ value, onChange }: { value: Period; onChange: (period: Period) => void }) {
  return (
    <fieldset class="segmented">
      <legend class="visually-hidden">Period</legend>
      {PERIODS.map(([period, label]) => (
        <label key={period} class="segmented__option">
          <input type="radio" name="period" value={period} checked={value === period} onChange={() => onChange(period)} />
          <span>{label}</span>
        </label>
      ))}
    </fieldset>
  );
}

interface UsageRow {
  name: string;
  live: Counts;
  test: Counts;
}

/** Live and test counts side by side, test ones set apart (never billed). */
function UsageTable({ label, rowHeader, rows }: { label: string; rowHeader: string; rows: UsageRow[] }) {
  const columns = ['Live cases', 'Live runs', 'Test cases', 'Test runs'];
  return (
    <TableScroll label={label}>
      <table class="table table--compact">
        <thead>
          <tr>
            <th scope="col">{rowHeader}</th>
            {columns.map((column) => (
              <th key={column} scope="col" class="num">
                {column}
                {column.startsWith('Test') && <span class="muted"> (not billed)</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <th scope="row">{row.name}</th>
              <td class="num">{formatCount(row.live.cases)}</td>
              <td class="num">{formatCount(row.live.runs)}</td>
              <td class="num test-usage">{formatCount(row.test.cases)}</td>
              <td class="num test-usage">{formatCount(row.test.runs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function PerWorkflow({ usage, names }: { usage: Usage; names: Map<number, string> }) {
  if (usage.workflows.length === 0) return <EmptyState title="No cases or runs in this period" />;
  const name = (id: number) => names.get(id) ?? `Workflow #${id}`;
  const billed = usage.workflows.filter((w) => w.live.cases + w.live.runs > 0);
  return (
    <>
      {billed.length > 0 ? (
        <HorizontalBars title="Live cases and runs per workflow" series={LIVE} groups={billed.map((w) => ({ label: name(w.workflow_id), values: { cases: w.live.cases, runs: w.live.runs } }))} />
      ) : (
        <p class="muted">No live (billed) usage in this period.</p>
      )}
      <UsageTable label="Usage per workflow" rowHeader="Workflow" rows={usage.workflows.map((w) => ({ name: name(w.workflow_id), live: w.live, test: w.test }))} />
    </>
  );
}

function PerDay() {
  const days = useLoad(async () => {
    const ranges = lastSevenDays(new Date());
    // The API reports totals for a period, so each day is its own request.
    const reports = await Promise.all(ranges.map((r) => fetchUsage(r.from, r.to)));
    return ranges.map((r, i) => ({ label: formatDay(r.day), axis: formatDayLines(r.day), usage: reports[i]! }));
  }, []);
  if (days.error) return <Alert tone="error">{days.error}</Alert>;
  if (!days.data) return <Loading label="Loading the last 7 days…" />;
  return (
    <>
      <ColumnBars title="Live cases and runs per day, last 7 days" series={LIVE} groups={days.data.map((d) => ({ label: d.label, axis: d.axis, values: { cases: d.usage.live.cases, runs: d.usage.live.runs } }))} />
      <details class="disclosure">
        <summary>Show as a table</summary>
        <UsageTable label="Usage per day" rowHeader="Day" rows={days.data.map((d) => ({ name: d.label, live: d.usage.live, test: d.usage.test }))} />
      </details>
    </>
  );
}

export function UsagePage() {
  useTitle('Usage');
  const [period, setPeriod] = useState<Period>('month');
  const usage = useLoad(() => {
    const { from, to } = periodRange(period, new Date());
    return fetchUsage(from, to);
  }, [period]);
  const workflows = useWorkflows();
  const names = new Map((workflows.data ?? []).map((w) => [w.id, w.name]));
  const report = usage.data;
  const range = report && `${formatDay(new Date(report.from))} – ${formatDay(new Date(report.to))}`;

  return (
    <>
      <PageHeader title="Usage" actions={<PeriodPicker value={period} onChange={setPeriod} />}>
        <p class="page-header__lead">Live cases created and live workflow runs started are billed. Test cases and their runs are counted apart and never billed.</p>
      </PageHeader>
      <div class="stack">
        {usage.error && <Alert tone="error">{usage.error}</Alert>}
        {usage.loading && !report && <Loading />}
        {report && (
          <>
            <div class="usage-totals">
              <UsageCard id="usage-billed" title="Billed usage" subtitle={range}>
                <Totals counts={report.live} kind="Live" notes={['cases created', 'workflow runs started']} />
              </UsageCard>
              <UsageCard id="usage-test" title="Test usage" subtitle="not billed" muted>
                <Totals counts={report.test} kind="Test" notes={['cases sent in test mode', 'runs of test cases']} />
              </UsageCard>
            </div>
            <UsageCard id="usage-workflows" title="Per workflow" subtitle={range}>
              <PerWorkflow usage={report} names={names} />
            </UsageCard>
          </>
        )}
        <UsageCard id="usage-days" title="Per day" subtitle="last 7 days, live only">
          <PerDay />
        </UsageCard>
      </div>
    </>
  );
}
