import { useState } from 'preact/hooks';
import { api, type Subscription } from '../api.ts';
import { Alert, Badge, CopyField, DateTime, EmptyState, Loading, PageHeader, TableScroll } from '../components.tsx';
import { useLoad, useTitle } from '../hooks.ts';
import { Link } from '../router.tsx';
import { NewItemCard } from '../crud-parts.tsx';
import { SubscriptionForm } from './subscription-form.tsx';
import { can } from '../session.ts';

export function StatusBadge({ subscription }: { subscription: Subscription }) {
  if (subscription.status === 'disabled') return <Badge tone="red">Disabled</Badge>;
  return subscription.failing_since ? <Badge tone="amber">Failing</Badge> : <Badge tone="green">Active</Badge>;
}

export function SubscriptionsPage() {
  useTitle('Subscriptions');
  const subscriptions = useLoad(() => api.get<{ subscriptions: Subscription[] }>('/subscriptions').then((r) => r.subscriptions), []);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ subscription: Subscription; secret: string } | null>(null);
  return (
    <>
      <PageHeader
        title="Subscriptions"
        actions={
          !creating &&
          can('createSubscription') && (
            <button type="button" class="button button--primary" onClick={() => setCreating(true)}>
              New subscription
            </button>
          )
        }
      >
        <p class="page-header__lead">Where case events are sent (outbound webhooks), with their delivery log.</p>
      </PageHeader>
      {creating && (
        <NewItemCard id="new-subscription" title="New subscription" onCancel={() => setCreating(false)}>
          <SubscriptionForm
            onSaved={(saved) => {
              setCreating(false);
              setCreated({ subscription: saved.subscription, secret: saved.signing_secret! });
              subscriptions.change((list) => [...list, saved.subscription]);
            }}
          />
        </NewItemCard>
      )}
      {created && (
        <section class="card card--highlight" aria-labelledby="new-signing-secret">
          <h2 id="new-signing-secret" class="card__title">
            Subscription to {created.subscription.url} created
          </h2>
          <Alert tone="warning" title="Copy the signing secret now">
            It will not be shown again. Your receiver checks each delivery’s webhook-signature with it.
          </Alert>
          <CopyField label="Signing secret" value={created.secret} copyLabel="Copy secret" />
          <div>
            <button type="button" class="button button--secondary" onClick={() => setCreated(null)}>
              I have copied it
            </button>
          </div>
        </section>
      )}
      {subscriptions.error && <Alert tone="error">{subscriptions.error}</Alert>}
      {subscriptions.loading && !subscriptions.data && <Loading />}
      {subscriptions.data?.length === 0 && (
        <EmptyState title="No subscriptions">
          <p>Create one with New subscription.</p>
        </EmptyState>
      )}
      {subscriptions.data && subscriptions.data.length > 0 && (
        <TableScroll label="Subscriptions">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {subscriptions.data.map((subscription) => (
                <tr key={subscription.id}>
                  <th scope="row">
                    <Link href={`/subscriptions/${subscription.id}`}>{subscription.url}</Link>
                  </th>
                  <td>{subscription.events.join(', ')}</td>
                  <td>
                    <StatusBadge subscription={subscription} />
                  </td>
                  <td>
                    <DateTime iso={subscription.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
