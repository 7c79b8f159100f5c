import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Webhook, Workflow } from '../api.ts';
import { Alert, CodeBlock, CopyField } from '../components.tsx';
import { Link } from '../router.tsx';
import { ChannelSecret, InboundEmail, RequestForm } from './workflow-channel-secret.tsx';

const FORMAT_SAMPLES: Record<NonNullable<Workflow['attributes'][string]['format']>, string> = {
  email: 'customer@example.com',
  uri: 'https://example.com/order/42',
  'date-time': '2025-01-31T09:30:00Z',
  date: '2025-01-31',
};

/** An example body for the curl line: the required attributes (or a few), with plausible values. */
export function sampleAttributes(attributes: Workflow['attributes']): Record<string, unknown> {
  const entries = Object.entries(attributes);
  const chosen = entries.filter(([, d]) => d.required).length > 0 ? entries.filter(([, d]) => d.required) : entries.slice(0, 2);
  const sample: Record<string, unknown> = {};
  for (const [name, declaration] of chosen) {
    if (declaration.enum?.length) sample[name] = declaration.enum[0];
    else if (declaration.type === 'string') sample[name] = declaration.format ? FORMAT_SAMPLES[declaration.format] : 'Example text';
    else sample[name] = { integer: 1, number: 9.5, boolean: true, object: {}, array: [], any: 'anything' }[declaration.type] ?? null;
  }
  if (chosen.length === 0) sample.summary = 'Printer on floor 3 is jammed';
  return sample;
}

function curlExample(url: string, body: Record<string, unknown>): string {
  return [`curl -X POST '${url}' \\`, `  -H 'Content-Type: application/json' \\`, `  -d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`].join('\n');
}

function IncomingWebhook({ workflow, onUrl }: { workflow: Workflow; onUrl: (url: string) => void }) {
  const blocker = workflow.published ? null : 'Publish the workflow first: only a published workflow can have an incoming webhook.';
  return (
    <ChannelSecret<Webhook> workflowId={workflow.id} resource="webhook" noun="webhook URL" blocker={blocker} onValue={(webhook) => onUrl(webhook.url)}>
      {(webhook) => (
        <>
          {!workflow.published && <Alert tone="warning">This workflow is unpublished: the URL answers 401 until you publish it again.</Alert>}
          <CopyField label="Webhook URL" value={webhook.url} copyLabel="Copy URL" hint="Anyone who has this URL can create cases in this workflow: keep it secret, like a password. It stays the same across versions." />
          <CodeBlock label="Try it with curl" code={curlExample(webhook.url, sampleAttributes(workflow.attributes))} />
          <p class="hint">The JSON object you post becomes the new case’s attributes. The answer is 201 with the case id; the case shows up under <Link href={`/cases?workflow_id=${workflow.id}&source=Webhook`}>Cases</Link> with source Webhook.</p>
        </>
      )}
    </ChannelSecret>
  );
}

/** One way cases come in: a titled card (a region named by its title) with a sentence on what it is. */
function SourceCard({ id, title, intro, children }: { id: string; title: string; intro: string; children: ComponentChildren }) {
  return (
    <section class="card" aria-labelledby={id}>
      <h3 id={id} class="card__title">
        {title}
      </h3>
      <p>{intro}</p>
      {children}
    </section>
  );
}

export function CaseConfiguration({ workflow }: { workflow: Workflow }) {
  return (
    <section class="stack" aria-labelledby="case-sources">
      <div>
        <h2 id="case-sources" class="section-title">
          Case Sources
        </h2>
        <p class="muted">Where this workflow’s cases come from.</p>
      </div>
      {workflow.case_source === 'email' && (
        <SourceCard id="inbound-email" title="Inbound Email" intro="Mail sent to the workflow’s own secret address becomes a case: the subject, sender, recipients, text and HTML parts and attachments are kept with it.">
          <InboundEmail workflow={workflow} />
        </SourceCard>
      )}
      {workflow.case_source === 'ticketing' && (
        <SourceCard id="request-form" title="Request Form" intro="A hosted web form, generated from the attribute schema, that anyone with its secret URL can fill in, with no account and no JavaScript needed.">
          <RequestForm workflow={workflow} />
        </SourceCard>
      )}
      {/* Only direct workflows take cases from a webhook or the cases API: the others are not offered (nor asked for) them. */}
      {workflow.case_source === 'direct' && <DirectSources workflow={workflow} />}
    </section>
  );
}

function DirectSources({ workflow }: { workflow: Workflow }) {
  // The service's public address (PUBLIC_BASE_URL) shows in the webhook URL; until there is one, this page's.
  const [webhookUrl, setWebhookUrl] = useState<string | null>(null);
  const base = webhookUrl ? new URL(webhookUrl).origin : window.location.origin;
  const casesUrl = `${base}/api/external/v1/workflows/${workflow.id}/cases`;
  return (
    <>
      <SourceCard id="incoming-webhook" title="Incoming Webhook" intro="Any system that can send an HTTP POST with a JSON body can create cases here, with no token to manage: the secret is part of the URL.">
        <IncomingWebhook workflow={workflow} onUrl={setWebhookUrl} />
      </SourceCard>
      <section class="card" aria-labelledby="cases-api">
        <h3 id="cases-api" class="card__title">
          Cases API
        </h3>
        <p>
          Your systems create, read and update cases with an API token (create one on the <Link href="/tokens">Tokens</Link> page) at:
        </p>
        <pre class="code" tabIndex={0}>
          <code>POST {casesUrl}</code>
        </pre>
        <p class="hint">
          Cases sent with <code>"mode": "test"</code> run the workflow but are never billed.
        </p>
      </section>
    </>
  );
}
