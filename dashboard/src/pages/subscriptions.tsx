import { api, type Subscription } from '../api.ts';
import { Alert, Badge, DateTime, EmptyState, Loading, PageHeader, TableScroll } from '../components.tsx';
import { useLoad, useTitle } from '../hooks.ts';
import { Link } from '../router.tsx';

export function StatusBadge({ subscription }: { subscription: Subscription }) {
  if (subscription.status === 'disabled') return <Badge tone="red">Disabled</Badge>;
  return subscription.failing_since ? <Badge tone="amber">Failing</Badge> : <Badge tone="green">Active</Badge>;
}

export function SubscriptionsPage() {
  useTitle('Subscriptions');
  const subscriptions = useLoad(() => api.get<{ subscriptions: Subscription[] }>('/subscriptions').then((r) => r.subscriptions), []);
  return (
    <>
      <PageHeader title="Subscriptions">
        <p class="page-header__lead">Where case events are sent (outbound webhooks), with their delivery log. Subscriptions are created through the admin API.</p>
      </PageHeader>
      {subscriptions.error && <Alert tone="error">{subscriptions.error}</Alert>}
      {subscriptions.loading && !subscriptions.data && <Loading />}
      {subscriptions.data?.length === 0 && (
        <EmptyState title="No subscriptions">
          <p>Create one with POST /api/admin/v1/subscriptions (see the API documentation at /docs).</p>
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
