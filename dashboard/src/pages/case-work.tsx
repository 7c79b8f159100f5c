import { useId, useState } from 'preact/hooks';
import { api, errorMessage, query, type Case, type CasePage } from '../api.ts';
import { casework, LINK_TYPES, PRIORITIES, signedInPerson, type CaseChange, type CaseComment, type CaseLink, type LinkType, type Visibility } from '../casework-api.ts';
import { useAssignables } from '../casework-pickers.ts';
import { Alert, Badge, ConfirmDialog, DateTime, Field, Select } from '../components.tsx';
import { formProblems } from '../form-problems.tsx';
import { humanize } from '../format.ts';
import { useAction, useLoad, type LivePages } from '../hooks.ts';
import { Link, navigate } from '../router.tsx';
import { can } from '../session.ts';
import { emailMessageOf } from './case-email.tsx';

/*
 * Working a case (casework.md section 7): who has it, its team, priority and status, who
 * watches it, its comments, its links and merging it away. Each result is said in a live
 * region beside the control that caused it, so a screen reader hears it without moving.
 */

type Picked = 'assignee' | 'team' | 'priority' | 'status';
const PICKED: Picked[] = ['assignee', 'team', 'priority', 'status'];
const CHANGE_FIELDS: Record<Picked, keyof CaseChange> = { assignee: 'assignee_id', team: 'team_id', priority: 'priority', status: 'status' };

function pickedOf(c: Case): Record<Picked, string> {
  return { assignee: c.assignee ? String(c.assignee.id) : '', team: c.team ? String(c.team.id) : '', priority: c.priority, status: c.status };
}

function changeOf(edits: Partial<Record<Picked, string>>, current: Record<Picked, string>): CaseChange {
  const change: Record<string, unknown> = {};
  for (const key of PICKED) {
    const value = edits[key];
    if (value === undefined || value === current[key]) continue;
    change[CHANGE_FIELDS[key]] = key === 'assignee' || key === 'team' ? (value === '' ? null : Number(value)) : value;
  }
  return change as CaseChange;
}

/** What a saved change did, in words, for the live region. */
function describeChange(before: Case, after: Case): string {
  const said: string[] = [];
  if (before.status !== after.status) said.push(`moved to ${after.status}`);
  if (before.assignee?.id !== after.assignee?.id) said.push(after.assignee ? `assigned to ${after.assignee.email}` : 'unassigned');
  if (before.team?.id !== after.team?.id) said.push(after.team ? `given to team ${after.team.name}` : 'taken from its team');
  if (before.priority !== after.priority) said.push(`priority ${after.priority}`);
  return said.length ? `Case ${said.join(', ')}.` : 'Nothing changed.';
}

/**
 * Assignee, team, priority and status, changed together with one Save (a select that acted on
 * every arrow key would move the case while a keyboard user reads the options). A field not
 * touched keeps showing the case as it is now, changes made elsewhere included.
 */
export function WorkPanel({ c, statuses, onChanged }: { c: Case; statuses: string[]; onChanged: (c: Case) => void }) {
  const me = signedInPerson();
  const assignables = useAssignables([c.assignee]);
  const [edits, setEdits] = useState<Partial<Record<Picked, string>>>({});
  const [said, setSaid] = useState('');
  const current = pickedOf(c);
  const value = (key: Picked) => edits[key] ?? current[key];
  const set = (key: Picked) => (next: string) => setEdits({ ...edits, [key]: next });
  const save = useAction(async (change: CaseChange) => {
    setSaid('');
    const after = await casework.change(c.id, change);
    setEdits({});
    setSaid(describeChange(c, after));
    onChanged(after);
  });
  // The button goes once the case is the caller's: the keyboard moves on to the assignee it set.
  const assignMe = async (meId: number) => {
    if (save.pending) return;
    await save.run({ assignee_id: meId });
    document.getElementById('work-assignee')?.focus();
  };
  const problems = formProblems(save.error, Object.values(CHANGE_FIELDS));
  const change = changeOf(edits, current);
  const people = assignables.data?.people ?? [];
  const teams = assignables.data?.teams;
  // Error is the engine's to set; a case in it shows it, but cannot be moved there.
  const statusOptions: [string, string][] = statuses.filter((status) => status !== 'Error').map((status) => [status, status]);
  if (c.status === 'Error') statusOptions.unshift(['Error', 'Error (set by the engine)']);
  // The buttons stay enabled while a save is under way: a disabled button would drop the keyboard's focus to the page.
  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (save.pending) return;
    if (Object.keys(change).length === 0) return setSaid('Nothing to save: pick a new assignee, team, priority or status first.');
    void save.run(change);
  };
  return (
    <section class="card" aria-labelledby="case-work">
      <div class="card__header">
        <h2 id="case-work" class="card__title">
          Work on this case
        </h2>
        {me && c.assignee?.id !== me.id && (
          <button type="button" class="button button--secondary button--small" onClick={() => void assignMe(me.id)}>
            Assign to me
          </button>
        )}
      </div>
      <form class="work-form" onSubmit={onSubmit}>
        <Field label="Assignee" id="work-assignee">
          <Select id="work-assignee" value={value('assignee')} onChange={set('assignee')} options={[['', 'Nobody'], ...people.map((p): [string, string] => [String(p.id), p.email])]} aria-describedby={problems.fields.assignee_id ? 'work-assignee-error' : undefined} />
        </Field>
        {teams && (
          <Field label="Team" id="work-team">
            <Select id="work-team" value={value('team')} onChange={set('team')} options={[['', 'No team'], ...teams.map((t): [string, string] => [String(t.id), t.name])]} />
          </Field>
        )}
        <Field label="Priority" id="work-priority">
          <Select id="work-priority" value={value('priority')} onChange={set('priority')} options={PRIORITIES.map((p): [string, string] => [p, humanize(p)])} />
        </Field>
        <Field label="Status" id="work-status">
          <Select id="work-status" value={value('status')} onChange={set('status')} options={statusOptions} />
        </Field>
        <div class="work-form__actions">
          <button type="submit" class="button button--primary" aria-disabled={save.pending ? true : undefined}>
            {save.pending ? 'Saving…' : 'Save changes'}
          </button>
          {Object.keys(edits).length > 0 && (
            <button type="button" class="button button--ghost" onClick={() => setEdits({})}>
              Discard
            </button>
          )}
        </div>
      </form>
      {assignables.error && <Alert tone="warning">The people and teams to pick from could not be loaded: {assignables.error}</Alert>}
      {save.error !== null && (
        <Alert tone="error" title="Not saved">
          {[...Object.values(problems.fields), problems.error && (typeof problems.error === 'string' ? problems.error : problems.error.message)].filter(Boolean).join(' ')}
        </Alert>
      )}
      <p class="muted" role="status">
        {said}
      </p>
      {me && <Watching c={c} meId={me.id} onChanged={onChanged} />}
    </section>
  );
}

/**
 * Whether the signed-in person watches the case. The case says only how many watch it, and
 * the list's `watching=true` filter says which cases the caller watches: asked for the cases
 * created in the very millisecond of this one (the list's bounds exclude themselves).
 */
async function watchedByMe(c: Case): Promise<boolean> {
  const at = Date.parse(c.created_at);
  const around = query({ watching: 'true', workflow_id: c.workflow_id, created_after: new Date(at - 1).toISOString(), created_before: new Date(at + 1).toISOString(), limit: 100 });
  const page = await api.get<CasePage>(`/cases${around}`);
  return page.cases.some((listed) => listed.id === c.id);
}

function Watching({ c, meId, onChanged }: { c: Case; meId: number; onChanged: (c: Case) => void }) {
  const assigned = c.assignee?.id === meId;
  const watching = useLoad(() => (assigned ? Promise.resolve(true) : watchedByMe(c)), [c.id, c.watchers, assigned]);
  const toggle = useAction(async (watch: boolean) => {
    await (watch ? casework.watch(c.id) : casework.unwatch(c.id));
    watching.setData(watch);
    const fresh = await api.get<{ case: Case }>(`/cases/${c.id}`);
    onChanged(fresh.case);
  });
  const count = c.watchers;
  return (
    <div class="watch">
      <p class="watch__count">
        {count === 1 ? '1 person watches' : `${count} people watch`} this case
        {watching.data ? (assigned ? ', you among them as its assignee.' : ', you among them.') : '.'}
      </p>
      {!assigned && watching.data !== undefined && (
        <button type="button" class="button button--secondary button--small" aria-pressed={watching.data} onClick={() => !toggle.pending && void toggle.run(!watching.data)}>
          {watching.data ? 'Stop watching' : 'Watch'}
        </button>
      )}
      {toggle.error !== null && <Alert tone="error">{errorMessage(toggle.error)}</Alert>}
    </div>
  );
}

/**
 * Who a public reply goes to, before it is sent: for an email case the first message's sender
 * and its Cc (not the service's own address it came to); otherwise whoever the last public
 * reply went to. null when only the service knows (the workflow's requester attribute).
 */
export function replyRecipients(c: Case, comments: CaseComment[]): string[] | null {
  const first = c.source_type === 'Email' ? emailMessageOf(c.attributes.email) : null;
  if (first?.from) {
    const own = new Set(first.to.map((mailbox) => mailbox.address.toLowerCase()));
    return [first.from.address, ...first.cc.map((mailbox) => mailbox.address).filter((address) => !own.has(address.toLowerCase()))];
  }
  return comments.findLast((comment) => comment.visibility === 'public' && comment.delivery)?.delivery?.to ?? null;
}

const DELIVERY_WORDS = { queued: 'queued', sent: 'sent', failed: 'not delivered' } as const;

function CommentItem({ comment }: { comment: CaseComment }) {
  const id = useId();
  return (
    <li>
      <article class={`comment comment--${comment.visibility}`} aria-labelledby={id}>
        <header class="comment__head">
          <h3 class="comment__author" id={id}>
            {comment.author.email ?? 'An admin token'}
          </h3>
          <Badge tone={comment.visibility === 'public' ? 'teal' : 'neutral'}>{comment.visibility === 'public' ? 'Public reply' : 'Internal note'}</Badge>
          <DateTime iso={comment.created_at} />
        </header>
        <p class="comment__body">{comment.body}</p>
        {comment.delivery && (
          <p class="comment__delivery">
            Mailed to {comment.delivery.to.join(', ')}: {DELIVERY_WORDS[comment.delivery.status]}
          </p>
        )}
      </article>
    </li>
  );
}

/** The case's comments, oldest first, and the composer: an internal note, or a public reply by mail to the requester. */
export function Comments({ c, comments }: { c: Case; comments: LivePages<CaseComment> }) {
  const [visibility, setVisibility] = useState<Visibility>('internal');
  const [body, setBody] = useState('');
  const [said, setSaid] = useState('');
  const more = useAction(comments.more);
  const post = useAction(async () => {
    setSaid('');
    const comment = await casework.comment(c.id, body, visibility);
    setBody('');
    setSaid(comment.visibility === 'public' ? `Reply sent to ${comment.delivery?.to.join(', ') ?? 'the requester'} (queued).` : 'Internal note added.');
    await comments.refresh();
  });
  const items = comments.items ?? [];
  const recipients = replyRecipients(c, items);
  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (post.pending) return;
    if (body.trim() === '') return setSaid('Write something first.');
    void post.run();
  };
  return (
    <section class="card" aria-labelledby="case-comments">
      <h2 id="case-comments" class="card__title">
        Comments
        <span class="card__subtitle">{items.length}</span>
      </h2>
      {comments.error && <Alert tone="error">{comments.error}</Alert>}
      {items.length === 0 && comments.items && <p class="muted">No comments yet.</p>}
      {items.length > 0 && (
        <ol class="comments" aria-labelledby="case-comments">
          {items.map((comment) => (
            <CommentItem key={comment.id} comment={comment} />
          ))}
        </ol>
      )}
      {comments.hasMore && (
        <button type="button" class="button button--ghost" onClick={() => void more.run()} disabled={more.pending}>
          Show later comments
        </button>
      )}
      {can('createComment') && (
        <form class="composer" onSubmit={onSubmit} aria-labelledby="composer-title">
          <h3 id="composer-title" class="composer__title">
            Add a comment
          </h3>
          <fieldset class="segmented">
            <legend class="visually-hidden">Visibility</legend>
            {(['internal', 'public'] as const).map((option) => (
              <label key={option} class="segmented__option">
                <input type="radio" name="comment-visibility" value={option} checked={visibility === option} onChange={() => setVisibility(option)} />
                <span>{option === 'internal' ? 'Internal note' : 'Public reply'}</span>
              </label>
            ))}
          </fieldset>
          {visibility === 'public' && (
            <p class="composer__recipients" id="composer-recipients">
              {recipients ? (
                <>
                  Mailed to: <strong>{recipients.join(', ')}</strong>
                </>
              ) : (
                "Mailed to the requester named by the workflow's requester attribute; the service refuses the reply when the case has none."
              )}
            </p>
          )}
          {visibility === 'internal' && (
            <p class="hint" id="composer-recipients">
              Seen by your organization only. Mention someone with @ and their email address to let them know.
            </p>
          )}
          <div class="field">
            <label for="composer-body">{visibility === 'public' ? 'Reply to the requester' : 'Internal note'}</label>
            <textarea id="composer-body" class="input composer__body" rows={4} value={body} onInput={(e) => setBody(e.currentTarget.value)} aria-describedby="composer-recipients" />
          </div>
          <div>
            <button type="submit" class="button button--primary" aria-disabled={post.pending ? true : undefined}>
              {post.pending ? 'Sending…' : visibility === 'public' ? 'Send reply' : 'Add note'}
            </button>
          </div>
          {post.error !== null && <Alert tone="error">{errorMessage(post.error)}</Alert>}
          <p class="composer__said" role="status">
            {said}
          </p>
        </form>
      )}
    </section>
  );
}

const LINK_WORDS: Record<LinkType, Record<CaseLink['direction'], string>> = {
  relates: { outward: 'Relates to', inward: 'Related to by' },
  duplicates: { outward: 'Duplicates', inward: 'Duplicated by' },
  blocks: { outward: 'Blocks', inward: 'Blocked by' },
};

/** The case's links to others (both directions), adding and removing them, and merging the case into another one of its workflow. */
export function LinksAndMerge({ c }: { c: Case }) {
  const links = useLoad(() => casework.links(c.id), [c.id]);
  const [other, setOther] = useState('');
  const [type, setType] = useState<LinkType>('relates');
  const [said, setSaid] = useState('');
  const add = useAction(async () => {
    await casework.link(c.id, Number(other), type);
    setSaid(`Linked: ${LINK_WORDS[type].outward.toLowerCase()} case #${other}.`);
    setOther('');
    links.reload();
  });
  const remove = useAction(async (linkId: number, otherId: number) => {
    await casework.unlink(c.id, linkId);
    setSaid(`Link to case #${otherId} removed.`);
    links.reload();
    document.getElementById('link-case')?.focus();
  });
  if (links.data === undefined && !links.error) return null;
  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (add.pending) return;
    if (!/^[1-9][0-9]*$/.test(other.trim())) return setSaid('Enter the number of the case to link.');
    void add.run();
  };
  return (
    <section class="card" aria-labelledby="case-links">
      <div class="card__header">
        <h2 id="case-links" class="card__title">
          Links
        </h2>
        {c.outcome !== 'Merged' && <MergeButton c={c} />}
      </div>
      {links.error && <Alert tone="error">{links.error}</Alert>}
      {links.data && links.data.length === 0 && <p class="muted">Not linked to other cases.</p>}
      {links.data && links.data.length > 0 && (
        <ul class="links">
          {links.data.map((link) => (
            <li key={link.id} class="links__item">
              <span>
                {LINK_WORDS[link.type][link.direction]} <Link href={`/cases/${link.case.id}`}>case #{link.case.id}</Link> <span class="muted">{link.case.subject}</span>
              </span>
              <button type="button" class="button button--ghost button--small" disabled={remove.pending} onClick={() => void remove.run(link.id, link.case.id)}>
                Remove<span class="visually-hidden"> the link to case #{link.case.id}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="form-row" onSubmit={onSubmit} aria-label="Link to another case">
        <Field label="Link type" id="link-type">
          <Select id="link-type" value={type} onChange={(value) => setType(value as LinkType)} options={LINK_TYPES.map((t): [string, string] => [t, LINK_WORDS[t].outward])} />
        </Field>
        <Field label="Case number" id="link-case">
          <input id="link-case" class="input" inputMode="numeric" value={other} onInput={(e) => setOther(e.currentTarget.value)} />
        </Field>
        <div class="form-row__submit">
          <button type="submit" class="button button--secondary">
            Add link
          </button>
        </div>
      </form>
      {(add.error ?? remove.error) !== null && <Alert tone="error">{errorMessage(add.error ?? remove.error)}</Alert>}
      <p class="visually-hidden" role="status">
        {said}
      </p>
    </section>
  );
}

/** Merging: pick another case of the same workflow (not one merged away itself); the page then shows the target. */
function MergeButton({ c }: { c: Case }) {
  const [open, setOpen] = useState(false);
  const [into, setInto] = useState('');
  const targets = useLoad(
    () => (open ? api.get<CasePage>(`/cases${query({ workflow_id: c.workflow_id, limit: 100 })}`).then((page) => page.cases.filter((other) => other.id !== c.id && other.outcome !== 'Merged')) : Promise.resolve([])),
    [open, c.id],
  );
  const merge = useAction(async () => {
    const target = await casework.merge(c.id, Number(into));
    setOpen(false);
    navigate(`/cases/${target.id}`);
  });
  const options: [string, string][] = [['', targets.loading ? 'Loading cases…' : 'Pick a case'], ...(targets.data ?? []).map((t): [string, string] => [String(t.id), `#${t.id} ${t.subject} (${t.status})`])];
  return (
    <>
      <button type="button" class="button button--secondary button--small" onClick={() => setOpen(true)}>
        Merge…
      </button>
      <ConfirmDialog
        open={open}
        title={`Merge case #${c.id} into another case`}
        confirmLabel="Merge"
        danger
        pending={merge.pending}
        error={merge.error !== null ? errorMessage(merge.error) : into === '' && targets.error ? targets.error : null}
        onConfirm={() => into !== '' && void merge.run()}
        onCancel={() => {
          setOpen(false);
          merge.clearError();
        }}
      >
        <p>
          This case is closed as <strong>Merged</strong>; its comments and messages are shown on the case you pick, and replies to its thread go there.
        </p>
        <Field label="Merge into" id="merge-into" hint="The newest 100 cases of the same workflow.">
          <select id="merge-into" class="input" value={into} onChange={(e) => setInto(e.currentTarget.value)} required aria-describedby="merge-into-hint">
            {options.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </Field>
      </ConfirmDialog>
    </>
  );
}
