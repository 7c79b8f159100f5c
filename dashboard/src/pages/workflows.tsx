import { api, type Workflow } from '../api.ts';
import { Alert, Badge, DateTime, EmptyState, Loading, PageHeader, TableScroll } from '../components.tsx';
import { useLoad, useTitle } from '../hooks.ts';
import { Link } from '../router.tsx';
import { can } from '../session.ts';

export function PublishedBadge({ workflow }: { workflow: Workflow }) {
  if (workflow.published) return <Badge tone="green">Published · v{workflow.version}</Badge>;
  if (workflow.version !== null) return <Badge tone="amber">Unpublished · last v{workflow.version}</Badge>;
  return <Badge>Draft</Badge>;
}

export const SOURCE_LABELS: Record<Workflow['case_source'], string> = { direct: 'Direct', ticketing: 'Ticketing', email: 'Email' };

export function WorkflowsPage() {
  useTitle('Workflows');
  const workflows = useLoad(() => api.get<{ workflows: Workflow[] }>('/workflows').then((r) => r.workflows), []);
  return (
    <>
      <PageHeader
        title="Workflows"
        actions={
          can('createWorkflow') && (
            <Link href="/workflows/new" class="button button--primary">
              New workflow
            </Link>
          )
        }
      >
        <p class="page-header__lead">Each workflow defines the statuses, attributes and automations of the cases it takes in.</p>
      </PageHeader>
      {workflows.error && <Alert tone="error">{workflows.error}</Alert>}
      {workflows.loading && !workflows.data && <Loading />}
      {workflows.data?.length === 0 && (
        <EmptyState title="No workflows yet">
          <p>Create one to start taking in cases from the API, an incoming webhook, email or a request form.</p>
          {can('createWorkflow') && (
            <Link href="/workflows/new" class="button button--primary">
              New workflow
            </Link>
          )}
        </EmptyState>
      )}
      {workflows.data && workflows.data.length > 0 && (
        <TableScroll label="Workflows">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" class="num">
                  ID
                </th>
                <th scope="col">Case source</th>
                <th scope="col">State</th>
                <th scope="col" class="num">
                  Statuses
                </th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {workflows.data.map((workflow) => (
                <tr key={workflow.id}>
                  <th scope="row">
                    <Link href={`/workflows/${workflow.id}`}>{workflow.name}</Link>
                  </th>
                  <td class="num">{workflow.id}</td>
                  <td>{SOURCE_LABELS[workflow.case_source] ?? workflow.case_source}</td>
                  <td>
                    <PublishedBadge workflow={workflow} />
                  </td>
                  <td class="num">{workflow.statuses.length}</td>
                  <td>
                    <DateTime iso={workflow.updated_at} />
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
