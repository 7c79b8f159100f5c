import type { ComponentChildren } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import { api, ApiError, errorMessage, type EmailAddress, type HostedForm, type Workflow } from '../api.ts';
import { Alert, CopyField, Loading } from '../components.tsx';
import { useAction, useLoad } from '../hooks.ts';
import { Link } from '../router.tsx';

/** The workflow resources that hold a channel's secret, each answered wrapped in a key of its own name. */
type SecretResource = 'webhook' | 'email_address' | 'form';

/**
 * A workflow's secret way in (webhook URL, inbound email address, form URL): shown when it was
 * generated, otherwise a Generate button, disabled with the reason while the workflow cannot
 * have one. Rotating is the operator's, so it is not offered here.
 */
export function ChannelSecret<T>(props: { workflowId: number; resource: SecretResource; noun: string; blocker: string | null; onValue?: (value: T) => void; children: (value: T) => ComponentChildren }) {
  const { workflowId, resource } = props;
  const path = `/workflows/${workflowId}/${resource}`;
  const existing = useLoad(
    () =>
      api.get<Record<SecretResource, T>>(path).then(
        (answer) => answer[resource],
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null; // none generated yet
          throw error;
        },
      ),
    [path],
  );
  const [generated, setGenerated] = useState<T | null>(null);
  const generate = useAction(async () => setGenerated((await api.post<Record<SecretResource, T>>(path))[resource]));
  const value = generated ?? existing.data ?? null;
  useEffect(() => {
    if (value !== null) props.onValue?.(value);
  }, [value]);
  const blockerId = useId();

  if (existing.loading && value === null) return <Loading label={`Looking for an existing ${props.noun}…`} />;
  if (existing.error) return <Alert tone="error">{existing.error}</Alert>;
  if (value !== null) return <div class="stack stack--tight">{props.children(value)}</div>;
  return (
    <div class="stack stack--tight">
      {props.blocker && (
        <p class="hint" id={blockerId}>
          {props.blocker}
        </p>
      )}
      {generate.error !== null && <Alert tone="error">{errorMessage(generate.error)}</Alert>}
      <div>
        <button type="button" class="button button--primary" onClick={() => generate.run()} disabled={generate.pending || props.blocker !== null} aria-describedby={props.blocker ? blockerId : undefined}>
          {generate.pending ? 'Generating…' : `Generate ${props.noun}`}
        </button>
      </div>
    </div>
  );
}

const publishFirst = (workflow: Workflow, noun: string) => (workflow.published ? null : `Publish the workflow first: only a published workflow can have ${noun}.`);

export function InboundEmail({ workflow }: { workflow: Workflow }) {
  return (
    <ChannelSecret<EmailAddress> workflowId={workflow.id} resource="email_address" noun="email address" blocker={publishFirst(workflow, 'an inbound email address')}>
      {({ address }) => (
        <>
          {!workflow.published && <Alert tone="warning">This workflow is unpublished: mail to this address is refused until you publish it again.</Alert>}
          <CopyField label="Inbound email address" value={address} copyLabel="Copy address" hint="Anyone who knows this address can create cases in this workflow: give it only to the senders you expect (for example as the forwarding target of your support mailbox). It stays the same across versions; only the operator can replace it." />
          <p class="hint">
            Each message becomes a case with source Email, listed under <Link href={`/cases?workflow_id=${workflow.id}&source=Email`}>Cases</Link>; a reply to one of its messages is added to that case instead, and reopens it if it was closed. Attachments are kept with the case.
          </p>
        </>
      )}
    </ChannelSecret>
  );
}

export function RequestForm({ workflow }: { workflow: Workflow }) {
  return (
    <ChannelSecret<HostedForm> workflowId={workflow.id} resource="form" noun="form URL" blocker={publishFirst(workflow, 'a request form')}>
      {({ url }) => (
        <>
          {!workflow.published && <Alert tone="warning">This workflow is unpublished: the form answers “not found” until you publish it again.</Alert>}
          <CopyField label="Form URL" value={url} copyLabel="Copy URL" hint="Anyone who has this URL can submit requests that become cases in this workflow: share it with the people the form is for. It stays the same across versions; only the operator can replace it." />
          <div>
            <a class="button button--secondary" href={url} target="_blank" rel="noopener noreferrer">
              Open the form<span class="visually-hidden"> (opens in a new tab)</span>
            </a>
          </div>
          <p class="hint">
            The form has a field per declared attribute, plus a subject and a description. Each submission becomes a case with source Form, listed under <Link href={`/cases?workflow_id=${workflow.id}&source=Form`}>Cases</Link>.
          </p>
        </>
      )}
    </ChannelSecret>
  );
}
