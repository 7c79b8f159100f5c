import { html } from '../../../shared/http/html.js';
import type { Period, ScheduledDigest } from '../domain/digest.js';
import { type ChartBar, digestChartSvg } from '../domain/digest-chart.js';
import type { CaseReport } from './case-report.service.js';

/** The chart's Content-ID: the HTML part shows it as `cid:` + this. */
export const CHART_CID = 'chart@digest';

export interface DigestEmail {
  subject: string;
  text: string;
  html: string;
  chartSvg: string;
}

const day = (iso: string) => iso.slice(0, 10);
const stamp = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The digest of one period for one recipient: its report's figures as text and HTML, the chart,
 * a link to the dashboard's report page, and the recipient's unsubscribe link.
 */
export function digestEmail(digest: ScheduledDigest, period: Period, report: CaseReport, dashboardUrl: string, unsubscribeUrl: string): DigestEmail {
  const query = new URLSearchParams({ from: period.start.toISOString(), to: period.end.toISOString() });
  for (const id of digest.workflowIds ?? []) query.append('workflow_id', String(id));
  const link = `${dashboardUrl}/reports?${query.toString()}`;
  const { totals, time_to_close_seconds: ttc } = report;
  const figures: [string, string][] = [
    ['Cases created', String(totals.created)],
    ['Cases closed', String(totals.closed)],
    ['Cases in error', String(totals.errored)],
    ['Cases reopened', String(totals.reopened)],
    ['Time to close, median', ttc.p50 === null ? 'none closed' : duration(ttc.p50)],
    ['Time to close, 90th percentile', ttc.p90 === null ? 'none closed' : duration(ttc.p90)],
    ...Object.entries(report.open_by_status).map(([status, n]): [string, string] => [`Open now: ${status}`, String(n)]),
  ];
  const bars: ChartBar[] = report.series.map((s) => ({ label: day(s.start).slice(5), created: s.created, closed: s.closed }));
  const span = `${stamp(period.start)} to ${stamp(period.end)}`;
  const subject = `Case report (${digest.schedule}): ${day(period.start.toISOString())} to ${day(period.end.toISOString())}`;
  const text = [
    `Case report, ${span}${digest.workflowIds ? ` (workflows ${digest.workflowIds.join(', ')})` : ''}`,
    '',
    ...figures.map(([name, value]) => `${name}: ${value}`),
    '',
    'Created and closed per day:',
    ...bars.map((b) => `  ${b.label}: ${b.created} created, ${b.closed} closed`),
    ...(report.top_errors.length ? ['', 'Most frequent errors:', ...report.top_errors.map((e) => `  ${e.count} x ${e.message}`)] : []),
    '',
    `Open the report: ${link}`,
    '',
    `You get this report because this address confirmed it. Unsubscribe: ${unsubscribeUrl}`,
  ].join('\n');
  const rows = (pairs: [string, string][]) => pairs.map(([name, value]) => html`<tr><th scope="row" style="text-align:left;padding:2px 12px 2px 0">${name}</th><td>${value}</td></tr>`);
  const chartAlt = `Created and closed per day: ${bars.map((b) => `${b.label} ${b.created} created, ${b.closed} closed`).join('; ')}`;
  const page = [
    html`<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222">`,
    html`<h1 style="font-size:18px">Case report</h1><p>${span}</p>`,
    html`<table>${rows(figures)}</table>`,
    html`<p><img src="cid:${CHART_CID}" width="560" height="220" alt="${chartAlt}"></p>`,
    report.top_errors.length ? html`<h2 style="font-size:15px">Most frequent errors</h2><table>${rows(report.top_errors.map((e) => [e.message, String(e.count)]))}</table>` : html``,
    html`<p><a href="${link}">Open the report in the dashboard</a></p>`,
    html`<p style="font-size:12px;color:#555">You get this report because this address confirmed it. <a href="${unsubscribeUrl}">Unsubscribe</a></p>`,
    html`</body></html>`,
  ];
  return { subject, text, html: html`${page}`.text, chartSvg: digestChartSvg(bars) };
}

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}
