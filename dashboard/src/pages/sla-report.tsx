import { api, type Schemas } from '../api.ts';
import { HorizontalBars, type Group, type Series } from '../chart.tsx';
import { Alert, EmptyState, Loading, TableScroll } from '../components.tsx';
import { formatCount, formatSeconds, humanize } from '../format.ts';
import { useLoad } from '../hooks.ts';

type SlaReport = Schemas['SlaReport'];
type SlaRow = SlaReport['clocks'][number];

const OUTCOMES: Series[] = [
  { key: 'met', label: 'Met', tone: 'tone-met' },
  { key: 'breached', label: 'Breached', tone: 'tone-breached' },
];
const TIMES: Series[] = [
  { key: 'p50', label: 'Median', tone: 'tone-median' },
  { key: 'p90', label: '90th percentile', tone: 'tone-p90' },
];

const share = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });
const rowLabel = (row: SlaRow) => `${humanize(row.clock)}, ${row.priority}`;

/**
 * The SLA report (sla.md section 4) of the page's range: per clock and priority, the periods
 * met and breached, and the business time they took to meet, as bars and as a table. The
 * report takes one workflow or all of them, so several picked show all.
 */
export function SlaReportSection({ from, to, workflowIds }: { from: string; to: string; workflowIds: string[] }) {
  const search = new URLSearchParams({ from, to });
  if (workflowIds.length === 1) search.set('workflow_id', workflowIds[0]!);
  const key = search.toString();
  const report = useLoad(() => api.get<{ report: SlaReport }>(`/reports/sla?${key}`).then((r) => r.report), [key]);
  return (
    <section class="card" aria-labelledby="report-sla">
      <h2 id="report-sla" class="card__title">
        Service levels <span class="card__subtitle">in business hours</span>
      </h2>
      {workflowIds.length > 1 && <p class="hint">The service levels cover every workflow with an SLA policy: pick one workflow to see its own.</p>}
      {report.error && <Alert tone="error">{report.error}</Alert>}
      {report.loading && !report.data && <Loading label="Loading the service levels…" />}
      {report.data && <SlaFigures report={report.data} />}
    </section>
  );
}

function SlaFigures({ report }: { report: SlaReport }) {
  if (report.clocks.length === 0) return (
      <EmptyState title="No SLA clock ended in this range">
        <p>Clocks count once they are met or breached, on cases created under a workflow’s SLA policy.</p>
      </EmptyState>
    );
  const outcomes: Group[] = report.clocks.map((row) => ({ label: rowLabel(row), values: { met: row.met, breached: row.breached } }));
  const timed = report.clocks.filter((row) => row.business_seconds_to_meet !== null);
  const times: Group[] = timed.map((row) => ({ label: rowLabel(row), values: { p50: row.business_seconds_to_meet!.p50, p90: row.business_seconds_to_meet!.p90 } }));
  return (
    <div class="stack">
      <p>
        {formatCount(report.cases)} {report.cases === 1 ? 'case' : 'cases'} under an SLA policy in this range.
      </p>
      <h3 class="card__title">Met and breached</h3>
      <HorizontalBars title="SLA clocks met and breached, by clock and priority" series={OUTCOMES} groups={outcomes} />
      {times.length > 0 && (
        <>
          <h3 class="card__title">Business time to meet</h3>
          <HorizontalBars title="Business time to meet, by clock and priority" series={TIMES} groups={times} format={formatSeconds} />
        </>
      )}
      <details class="disclosure">
        <summary>Show service levels as a table</summary>
        <SlaTable rows={report.clocks} />
      </details>
    </div>
  );
}

function SlaTable({ rows }: { rows: SlaRow[] }) {
  return (
    <TableScroll label="Service levels by clock and priority">
      <table class="table table--compact">
        <thead>
          <tr>
            <th scope="col">Clock</th>
            <th scope="col">Priority</th>
            {['Measured', 'Met', 'Breached', 'Share met', 'Median', '90th percentile'].map((c) => (
              <th key={c} scope="col" class="num">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowLabel(row)}>
              <th scope="row">{humanize(row.clock)}</th>
              <td>{row.priority}</td>
              {[formatCount(row.measured), formatCount(row.met), formatCount(row.breached), row.met_share === null ? '–' : share.format(row.met_share), formatSeconds(row.business_seconds_to_meet?.p50 ?? null), formatSeconds(row.business_seconds_to_meet?.p90 ?? null)].map((cell, i) => (
                <td key={i} class="num">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
