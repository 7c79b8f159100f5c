import { useLayoutEffect, useState } from 'preact/hooks';
import { api, type Digest } from '../api.ts';
import { Alert, DateTime, EmptyState, Field, ItemTable, Loading, PageHeader, Select } from '../components.tsx';
import { DeleteDialog, NewItemCard } from '../crud-parts.tsx';
import { FieldError, FormError, formProblems, useFocusFirstProblem } from '../form-problems.tsx';
import { useAction, useLoad, useTitle } from '../hooks.ts';
import { Link } from '../router.tsx';
import { WorkflowPicker } from './subscription-form.tsx';
import { can } from '../session.ts';

const FIELDS = ['schedule', 'hour_utc', 'weekday', 'recipients', 'workflow_ids'] as const;
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const HOURS: [string, string][] = Array.from({ length: 24 }, (_, h) => [String(h), `${String(h).padStart(2, '0')}:00 UTC`]);

function describe(d: Digest): string {
  const hour = `${String(d.hour_utc).padStart(2, '0')}:00 UTC`;
  return d.schedule === 'weekly' ? `Weekly, ${WEEKDAYS[(d.weekday ?? 1) - 1]} at ${hour}` : `Daily at ${hour}`;
}

/** The ids a digest input names: `digest-recipients`, and so on. */
const inputId = (field: (typeof FIELDS)[number]) => `digest-${field}`;
const describedBy = (field: (typeof FIELDS)[number], error: string | undefined, hint = false) =>
  [error && `${inputId(field)}-error`, hint && `${inputId(field)}-hint`].filter(Boolean).join(' ') || undefined;

/** Creates a digest, or changes one (`existing`, its fields prefilled): the same fields, validated by the API. */
function DigestForm({ existing, onSaved }: { existing?: Digest; onSaved: (digest: Digest) => void }) {
  const [schedule, setSchedule] = useState<Digest['schedule']>(existing?.schedule ?? 'daily');
  const [hour, setHour] = useState(String(existing?.hour_utc ?? 7));
  const [weekday, setWeekday] = useState(String(existing?.weekday ?? 1));
  const [recipients, setRecipients] = useState(existing?.recipients.join('\n') ?? '');
  const [workflowIds, setWorkflowIds] = useState<number[]>(existing?.workflow_ids ?? []);
  // The edit form opens above the table: the keyboard is taken to it rather than left on the row's
  // button, in the same commit that shows the form (a plain effect would run a frame later).
  useLayoutEffect(() => {
    if (existing) document.getElementById(inputId('schedule'))?.focus();
  }, []);
  const save = useAction(async () => {
    // A change names every field, so a weekday or workflows left out are cleared (null) rather than kept.
    const cleared = existing ? null : undefined;
    const body = {
      schedule,
      hour_utc: Number(hour),
      weekday: schedule === 'weekly' ? Number(weekday) : cleared,
      recipients: recipients.split(/[\s,;]+/).filter(Boolean),
      workflow_ids: workflowIds.length > 0 ? workflowIds : cleared,
    };
    const saved = existing ? await api.patch<{ digest: Digest }>(`/digests/${existing.id}`, { body }) : await api.post<{ digest: Digest }>('/digests', { body });
    onSaved(saved.digest);
  });
  const problems = formProblems(save.error, FIELDS);
  useFocusFirstProblem(save.error, problems, 'digest', FIELDS);
  const { fields } = problems;
  return (
    <form
      class="stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <div class="form-row">
        <Field label="Schedule" id={inputId('schedule')}>
          <Select id={inputId('schedule')} value={schedule} onChange={(value) => setSchedule(value as Digest['schedule'])} options={[['daily', 'Daily'], ['weekly', 'Weekly']]} aria-describedby={describedBy('schedule', fields.schedule)} />
          <FieldError id={inputId('schedule')} error={fields.schedule} />
        </Field>
        {schedule === 'weekly' && (
          <Field label="On" id={inputId('weekday')}>
            <Select id={inputId('weekday')} value={weekday} onChange={setWeekday} options={WEEKDAYS.map((day, i) => [String(i + 1), day])} aria-describedby={describedBy('weekday', fields.weekday)} />
            <FieldError id={inputId('weekday')} error={fields.weekday} />
          </Field>
        )}
        <Field label="At" id={inputId('hour_utc')} hint="The period ends and the digest is sent at this hour.">
          <Select id={inputId('hour_utc')} value={hour} onChange={setHour} options={HOURS} aria-describedby={describedBy('hour_utc', fields.hour_utc, true)} />
          <FieldError id={inputId('hour_utc')} error={fields.hour_utc} />
        </Field>
      </div>
      <Field label="Recipients" id={inputId('recipients')} hint="Email addresses, one a line. Each is asked once to confirm before it gets digests.">
        <textarea
          id={inputId('recipients')}
          class="input"
          rows={3}
          value={recipients}
          onInput={(e) => setRecipients(e.currentTarget.value)}
          aria-invalid={fields.recipients ? true : undefined}
          aria-describedby={describedBy('recipients', fields.recipients, true)}
        />
        <FieldError id={inputId('recipients')} error={fields.recipients} />
      </Field>
      <WorkflowPicker id={inputId('workflow_ids')} chosen={workflowIds} onChange={setWorkflowIds} error={fields.workflow_ids} />
      <FormError error={problems.error} what="digests" />
      <div>
        <button type="submit" class="button button--primary" disabled={save.pending}>
          {save.pending ? 'Saving…' : existing ? 'Save changes' : 'Create digest'}
        </button>
      </div>
    </form>
  );
}

export function DigestsPage() {
  useTitle('Digests');
  const digests = useLoad(() => api.get<{ digests: Digest[] }>('/digests').then((r) => r.digests), []);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Digest | null>(null);
  const [deleting, setDeleting] = useState<Digest | null>(null);
  const remove = async (digest: Digest) => {
    await api.delete(`/digests/${digest.id}`);
    digests.change((list) => list.filter((d) => d.id !== digest.id));
  };
  return (
    <>
      <PageHeader
        title="Digests"
        eyebrow={<Link href="/reports">Reports</Link>}
        actions={
          !creating &&
          can('createDigest') && (
            <button
              type="button"
              class="button button--primary"
              onClick={() => {
                setEditing(null);
                setCreating(true);
              }}
            >
              New digest
            </button>
          )
        }
      >
        <p class="page-header__lead">The case report by email, daily or weekly, to addresses that confirmed.</p>
      </PageHeader>
      <div class="stack">
        {creating && (
          <NewItemCard id="new-digest" title="New digest" onCancel={() => setCreating(false)}>
            <DigestForm
              onSaved={(digest) => {
                setCreating(false);
                digests.change((list) => [...list, digest]);
              }}
            />
          </NewItemCard>
        )}
        {editing && (
          <NewItemCard id="edit-digest" title="Change digest" onCancel={() => setEditing(null)}>
            <DigestForm
              key={editing.id}
              existing={editing}
              onSaved={(digest) => {
                setEditing(null);
                digests.change((list) => list.map((d) => (d.id === digest.id ? digest : d)));
              }}
            />
          </NewItemCard>
        )}
        {digests.error && <Alert tone="error">{digests.error}</Alert>}
        {digests.loading && !digests.data && <Loading />}
        {digests.data?.length === 0 && <EmptyState title="No digests" />}
        {digests.data && digests.data.length > 0 && (
          <ItemTable label="Digests" columns={['Schedule', 'Recipients', 'Last sent']}>
            {digests.data.map((digest) => (
              <tr key={digest.id}>
                <th scope="row">{describe(digest)}</th>
                <td>
                  {digest.recipients.join(', ')} <span class="muted">({digest.confirmed_recipients.length} confirmed)</span>
                </td>
                <td>
                  <DateTime iso={digest.last_sent_at} />
                </td>
                <td class="actions">
                  {can('updateDigest') && (
                    <button
                      type="button"
                      class="button button--ghost button--small"
                      onClick={() => {
                        setCreating(false);
                        setEditing(digest);
                      }}
                    >
                      Edit<span class="visually-hidden"> digest {describe(digest)}</span>
                    </button>
                  )}{' '}
                  {can('deleteDigest') && (
                    <button type="button" class="button button--danger-ghost button--small" onClick={() => setDeleting(digest)}>
                      Delete<span class="visually-hidden"> digest {describe(digest)}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </ItemTable>
        )}
      </div>
      <DeleteDialog target={deleting} title="Delete this digest?" confirmLabel="Delete digest" remove={remove} onClose={() => setDeleting(null)}>
        <p>
          <strong>{deleting && describe(deleting)}</strong> to {deleting?.recipients.join(', ')}: no period is sent for it any more. This cannot be undone.
        </p>
      </DeleteDialog>
    </>
  );
}
