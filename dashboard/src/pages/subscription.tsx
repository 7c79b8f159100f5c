import { useState } from 'preact/hooks';
import { api, type DeliveryAttempt, errorMessage, type Subscription } from '../api.ts';
import { Alert, Badge, DateTime, DetailList, EmptyState, Field, Loading, PageHeader, TableScroll } from '../components.tsx';
import { useAction, useLoad, useTitle } from '../hooks.ts';
import { Link, navigate } from '../router.tsx';
import { DeleteDialog } from '../crud-parts.tsx';
import { SubscriptionForm } from './subscription-form.tsx';
import { StatusBadge } from './subscriptions.tsx';
import { can } from '../session.ts';

const DAY_MS = 86_400_000;

/** Where a recover starts by default: when the failures began, else a day ago. */
function defaultSince(subscription: Subscription): string {
  return subscription.failing_since ?? subscription.disabled_at ?? new Date(Date.now() - DAY_MS).toISOString();
}

function DisabledBanner({ subscription, onEnabled }: { subscription: Subscription; onEnabled: (subscription: Subscription) => void }) {
  const enable = useAction(async () => {
    onEnabled((await api.post<{ subscription: Subscription }>(`/subscriptions/${subscription.id}/enable`)).subscription);
  });
  return (
    <Alert tone="warning" title="This subscription is disabled">
      <p>
        Disabled since <DateTime iso={subscription.disabled_at} />
        {subscription.disabled_reason && `: ${subscription.disabled_reason}`}. Nothing is sent to it. Enabling it sends the events that happen from then on; send the events it missed with Recover.
      </p>
      {can('enableSubscription') && (
        <button type="button" class="button button--primary button--small" onClick={() => void enable.run()} disabled={enable.pending}>
          {enable.pending ? 'Enabling…' : 'Enable subscription'}
        </button>
      )}
      {enable.error !== null && <p role="alert">{errorMessage(enable.error)}</p>}
    </Alert>
  );
}

function RecoverCard({ subscription, onRecovered }: { subscription: Subscription; onRecovered: () => void }) {
  const [since, setSince] = useState(() => defaultSince(subscription));
  const [recovering, setRecovering] = useState<number | null>(null);
  const recover = useAction(async () => {
    setRecovering(null);
    const answer = await api.post<{ recovering: number }>(`/subscriptions/${subscription.id}/recover`, { body: { since: since.trim() } });
    setRecovering(answer.recovering);
    onRecovered();
  });
  const disabled = subscription.status === 'disabled';
  return (
    <section class="card" aria-labelledby="recover-title">
      <h2 id="recover-title" class="card__title">
        Recover failed deliveries
      </h2>
      <p>Every delivery that ended failed since this time (including the events missed while disabled) is sent again, each case’s events in their order, with the same webhook-id.</p>
      <form
        class="form-row"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void recover.run();
        }}
      >
        <Field label="Failed since" id="recover-since" hint="ISO 8601, for example 2026-11-24T08:00:00Z.">
          <input id="recover-since" class="input" type="text" value={since} onInput={(e) => setSince(e.currentTarget.value)} aria-describedby="recover-since-hint" />
        </Field>
        <div class="form-row__submit">
          <button type="submit" class="button button--primary" disabled={disabled || recover.pending}>
            {recover.pending ? 'Recovering…' : 'Recover'}
          </button>
        </div>
      </form>
      {disabled && <p class="hint">Enable the subscription first.</p>}
      {recovering !== null && <Alert tone="success">{recovering === 1 ? '1 delivery is being sent again.' : `${recovering} deliveries are being sent again.`}</Alert>}
      {recover.error !== null && <Alert tone="error">{errorMessage(recover.error)}</Alert>}
    </section>
  );
}

function Result({ attempt }: { attempt: DeliveryAttempt }) {
  if (attempt.delivered) return <Badge tone="green">Delivered {attempt.status_code}</Badge>;
  return (
    <>
      <Badge tone="red">Failed</Badge> {attempt.error}
    </>
  );
}

function DeliveriesCard({ subscription, attempts, onChanged }: { subscription: Subscription; attempts: DeliveryAttempt[]; onChanged: () => void }) {
  const [retried, setRetried] = useState<DeliveryAttempt | null>(null);
  const retry = useAction(async (attempt: DeliveryAttempt) => {
    setRetried(null);
    await api.post(`/subscriptions/${subscription.id}/deliveries/${attempt.delivery_id}/retry`);
    setRetried(attempt);
    onChanged();
  });
  // Newest first: the first row of a delivery is its latest attempt, where its Retry button goes.
  const latest = new Map<number, DeliveryAttempt>();
  for (const attempt of attempts) if (!latest.has(attempt.delivery_id)) latest.set(attempt.delivery_id, attempt);
  return (
    <section aria-labelledby="deliveries-title">
      <div class="card__header">
        <h2 id="deliveries-title" class="section-title">
          Delivery attempts
        </h2>
        <button type="button" class="button button--secondary button--small" onClick={onChanged}>
          Refresh
        </button>
      </div>
      {retried && <Alert tone="success">{`The ${retried.event_type} of case ${retried.case_id} is being sent again; its attempt appears here once made.`}</Alert>}
      {retry.error !== null && <Alert tone="error">{errorMessage(retry.error)}</Alert>}
      {attempts.length === 0 ? (
        <EmptyState title="No delivery attempts yet" />
      ) : (
        <TableScroll label="Delivery attempts">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Case</th>
                <th scope="col">Attempt</th>
                <th scope="col">Result</th>
                <th scope="col">When</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {attempts.map((attempt) => (
                <tr key={`${attempt.delivery_id}-${attempt.attempt}`}>
                  <th scope="row">{attempt.event_type}</th>
                  <td>
                    <Link href={`/cases/${attempt.case_id}`}>#{attempt.case_id}</Link>
                  </td>
                  <td>{attempt.attempt}</td>
                  <td>
                    <Result attempt={attempt} />
                  </td>
                  <td>
                    <DateTime iso={attempt.attempted_at} />
                  </td>
                  <td class="actions">
                    {latest.get(attempt.delivery_id) === attempt && can('retryDelivery') && (
                      <button type="button" class="button button--ghost button--small" disabled={subscription.status === 'disabled' || retry.pending} onClick={() => void retry.run(attempt)}>
                        Retry<span class="visually-hidden"> {attempt.event_type} of case {attempt.case_id}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

function EditCard({ subscription, onSaved }: { subscription: Subscription; onSaved: (subscription: Subscription) => void }) {
  const [deleting, setDeleting] = useState(false);
  const [saved, setSaved] = useState(false);
  const remove = async (gone: Subscription) => {
    await api.delete(`/subscriptions/${gone.id}`);
    navigate('/subscriptions');
  };
  return (
    <section class="card" aria-labelledby="edit-subscription">
      <h2 id="edit-subscription" class="card__title">
        Change or delete
      </h2>
      <SubscriptionForm
        key={subscription.id}
        existing={subscription}
        onSaved={(result) => {
          setSaved(true);
          onSaved(result.subscription);
        }}
      />
      {saved && <Alert tone="success">Saved. Events from now on follow the change.</Alert>}
      <div>
        <button type="button" class="button button--danger-ghost" onClick={() => setDeleting(true)}>
          Delete subscription
        </button>
      </div>
      <DeleteDialog target={deleting ? subscription : null} title="Delete this subscription?" confirmLabel="Delete subscription" remove={remove} onClose={() => setDeleting(false)}>
        <p>
          Nothing more is sent to <strong>{subscription.url}</strong>, pending retries included. This cannot be undone.
        </p>
      </DeleteDialog>
    </section>
  );
}

export function SubscriptionPage({ id }: { id: number }) {
  useTitle(`Subscription ${id}`);
  // The list is the only read of a subscription the API has (there is no GET by id).
  const subscription = useLoad(
    () =>
      api.get<{ subscriptions: Subscription[] }>('/subscriptions').then((r) => {
        const found = r.subscriptions.find((s) => s.id === id);
        if (!found) throw new Error('This subscription does not exist, or was deleted.');
        return found;
      }),
    [id],
  );
  const attempts = useLoad(() => api.get<{ deliveries: DeliveryAttempt[] }>(`/subscriptions/${id}/deliveries`).then((r) => r.deliveries), [id]);
  const shown = subscription.data;
  return (
    <>
      <PageHeader title={`Subscription ${id}`} eyebrow={<Link href="/subscriptions">Subscriptions</Link>}>
        {shown && <p class="page-header__lead">{shown.url}</p>}
      </PageHeader>
      {subscription.error && <Alert tone="error">{subscription.error}</Alert>}
      {subscription.loading && !shown && <Loading />}
      {shown && (
        <div class="stack">
          {shown.status === 'disabled' && <DisabledBanner subscription={shown} onEnabled={subscription.setData} />}
          <section class="card" aria-labelledby="subscription-details">
            <h2 id="subscription-details" class="card__title">
              Details
            </h2>
            <DetailList
              items={[
                ['Status', <StatusBadge subscription={shown} />],
                ['Events', shown.events.join(', ')],
                ['Workflows', shown.workflow_ids === null ? 'All workflows' : shown.workflow_ids.map((w) => `#${w}`).join(', ')],
                ['Failing since', shown.failing_since ? <DateTime iso={shown.failing_since} /> : 'Not failing'],
                ['Created', <DateTime iso={shown.created_at} />],
              ]}
            />
          </section>
          {can('updateSubscription') && <EditCard subscription={shown} onSaved={subscription.setData} />}
          {can('recoverDeliveries') && <RecoverCard subscription={shown} onRecovered={attempts.reload} />}
          {attempts.error && <Alert tone="error">{attempts.error}</Alert>}
          {attempts.loading && !attempts.data && <Loading />}
          {attempts.data && <DeliveriesCard subscription={shown} attempts={attempts.data} onChanged={attempts.reload} />}
        </div>
      )}
    </>
  );
}
