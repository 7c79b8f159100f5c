import type { ComponentChildren } from 'preact';
import { api, errorMessage, type Case, type TimelineEvent, type TimelinePage } from '../api.ts';
import { findCase } from '../case-lookup.ts';
import { casework } from '../casework-api.ts';
import { Alert, DateTime, DetailList, Loading, PageHeader } from '../components.tsx';
import { formatActor, humanize } from '../format.ts';
import { useAction, useLivePages, useLoad, usePolling, useTitle, useWorkflows } from '../hooks.ts';
import { compactJson, prettyJson } from '../json.ts';
import { Link } from '../router.tsx';
import { can } from '../session.ts';
import { EMAIL_FIELDS, EmailThread, emailMessageOf, formatMailbox, subjectOf } from './case-email.tsx';
import { CaseRuns, caseRunsPage } from './case-runs.tsx';
import { CaseSlaClocks } from './case-sla.tsx';
import { Comments, LinksAndMerge, WorkPanel } from './case-work.tsx';
import { ModeBadge, SourceBadge, StatusBadge } from './cases.tsx';

const EVENT_TONES: Record<string, string> = {
  created: 'created',
  status_changed: 'status',
  run_failed: 'failed',
  run_superseded: 'muted',
  run_succeeded: 'success',
  email_received: 'created',
};

/** Fields shown apart: those of every event, and those the summary line (or, for a reply, the email thread) already shows. */
const SHOWN_APART: Record<string, string[]> = { created: ['source', 'status'], status_changed: ['from', 'to'], run_failed: ['error'], email_received: EMAIL_FIELDS };

function details(event: TimelineEvent): [string, unknown][] {
  const apart = ['id', 'type', 'by', 'at', ...(SHOWN_APART[event.type] ?? [])];
  return Object.entries(event).filter(([key]) => !apart.includes(key));
}

function eventSummary(event: TimelineEvent): string | null {
  if (event.type === 'status_changed') return `${String(event.from)} → ${String(event.to)}`;
  if (event.type === 'created') return `Created from ${String(event.source)} in ${String(event.status)}`;
  if (event.type === 'run_failed') return `Run failed: ${compactJson(event.error)}`;
  if (event.type === 'email_received') {
    const message = emailMessageOf(event);
    return message && `From ${formatMailbox(message.from)}: ${subjectOf(message)}. The message is shown in the email thread.`;
  }
  return null;
}

function Timeline({ events }: { events: TimelineEvent[] }) {
  if (events.length === 0) return <p class="muted">No events yet.</p>;
  return (
    <ol class="timeline">
      {events.map((event) => {
        const summary = eventSummary(event);
        const rest = details(event);
        return (
          <li key={event.id} class={`timeline__event timeline__event--${EVENT_TONES[event.type] ?? 'default'}`}>
            <div class="timeline__head">
              <h3 class="timeline__type">{humanize(event.type)}</h3>
              <p class="timeline__meta">
                <span>by {formatActor(event.by)}</span>
                <DateTime iso={event.at} />
              </p>
            </div>
            {summary && <p class="timeline__summary">{summary}</p>}
            {rest.length > 0 && (
              <dl class="timeline__details">
                {rest.map(([key, value]) => (
                  <div key={key}>
                    <dt>{key}</dt>
                    <dd>{value !== null && typeof value === 'object' ? <pre class="code code--inline">{prettyJson(value)}</pre> : <code>{compactJson(value)}</code>}</dd>
                  </div>
                ))}
              </dl>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** Who works the case (casework.md section 2). */
function workDetails(c: Case): [string, ComponentChildren][] {
  return [
    ['Assignee', c.assignee?.email ?? <span class="muted">Nobody</span>],
    ['Team', c.team?.name ?? <span class="muted">None</span>],
    ['Priority', humanize(c.priority)],
    ['Watchers', c.watchers],
  ];
}

/** A page of the case's timeline: the first, or the one after `cursor`. */
function timelinePage(id: number, cursor?: string): Promise<TimelinePage> {
  return api.get<TimelinePage>(`/cases/${id}/timeline${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
}

/**
 * How often an open case page asks for the case, its timeline and its comments again, so that
 * changes made elsewhere show within 5 s without a reload. Only while the tab is visible, only
 * the last page of each list (they grow at their end), and the page is drawn again only when
 * an answer differs from the one shown.
 */
const LIVE_INTERVAL_MS = 3_000;

export function CasePage({ id }: { id: number }) {
  useTitle(`Case ${id}`);
  const found = useLoad<Case | null>(() => findCase(id), [id]);
  const timeline = useLivePages((cursor) => timelinePage(id, cursor).then((page) => ({ items: page.events, next: page.next_cursor })), [id]);
  const c = found.data;
  const works = can('workCase');
  const comments = useLivePages((after) => casework.comments(id, after).then((page) => ({ items: page.comments, next: page.next_cursor })), [id]);
  const runs = useLoad(() => caseRunsPage(id), [id]);
  const more = useAction(timeline.more);
  const events = timeline.items;
  const workflowId = found.data?.workflow_id;
  const workflows = useWorkflows();
  const workflow = workflows.data?.find((w) => w.id === workflowId);
  const workflowName = workflow?.name ?? `#${workflowId}`;
  const refreshCase = async () => {
    const fresh = await findCase(id);
    if (JSON.stringify(fresh) !== JSON.stringify(found.data)) found.setData(fresh);
  };
  usePolling(() => Promise.all([refreshCase(), timeline.refresh(), comments.refresh()]).then(() => undefined), LIVE_INTERVAL_MS, [id]);
  const refresh = () => {
    void refreshCase();
    void timeline.refresh();
    runs.reload();
  };
  // A change the page made shows at once, with the timeline rows it wrote.
  const changed = (after: Case) => {
    found.setData(after);
    void timeline.refresh();
  };
  return (
    <>
      <PageHeader title={`Case #${id}`} eyebrow={<Link href="/cases">Cases</Link>}>
        {c && <p class="page-header__lead">{c.subject}</p>}
      </PageHeader>
      <div class="stack">
        {found.error && <Alert tone="error">{found.error}</Alert>}
        {found.loading && !c && <Loading />}
        {found.data === null && !found.loading && <Alert tone="error">This case was not found in your organization.</Alert>}
        {c && works && <WorkPanel c={c} statuses={workflow?.statuses ?? [c.status]} onChanged={changed} />}
        {c && (
          <div class="case-grid">
            <section class="card" aria-labelledby="case-details">
              <h2 id="case-details" class="card__title">
                Details
              </h2>
              <DetailList
                rows
                items={[
                  ['Case ID', c.id],
                  ['Subject', c.subject],
                  ['Workflow', can('getWorkflow') ? <Link href={`/workflows/${c.workflow_id}`}>{workflowName}</Link> : workflowName],
                  ['Status', <StatusBadge status={c.status} />],
                  ['Outcome', c.outcome ?? <span class="muted">—</span>],
                  ...workDetails(c),
                  ['Source', <SourceBadge source={c.source_type} />],
                  ['Mode', <ModeBadge mode={c.mode} />],
                  ['Created', <DateTime iso={c.created_at} />],
                  ['Updated', <DateTime iso={c.updated_at} />],
                ]}
              />
            </section>
            <section class="card" aria-labelledby="case-attributes">
              <h2 id="case-attributes" class="card__title">
                Attributes
              </h2>
              <pre class="code" tabIndex={0} aria-labelledby="case-attributes">
                <code>{prettyJson(c.attributes)}</code>
              </pre>
            </section>
          </div>
        )}
        {c?.sla?.policy && <CaseSlaClocks sla={c.sla} />}
        {c && <Comments c={c} comments={comments} />}
        {c && works && <LinksAndMerge c={c} />}
        {c && <EmailThread c={c} events={events ?? []} />}
        <section class="card" aria-labelledby="case-timeline">
          <div class="card__header">
            <h2 id="case-timeline" class="card__title">
              Timeline
            </h2>
            <button type="button" class="button button--ghost button--small" onClick={refresh}>
              Refresh
            </button>
          </div>
          {timeline.error && <Alert tone="error">{timeline.error}</Alert>}
          {!timeline.error && !events && <Loading label="Loading the timeline…" />}
          {events && <Timeline events={events} />}
          {more.error !== null && <Alert tone="error">{errorMessage(more.error)}</Alert>}
          {timeline.hasMore && (
            <button type="button" class="button button--ghost" onClick={() => void more.run()} disabled={more.pending}>
              Show later events
            </button>
          )}
        </section>
        <CaseRuns caseId={id} runs={runs} />
      </div>
    </>
  );
}
