import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, errorMessage, type Webhook, type Workflow } from '../api.ts';
import { Alert, CodeBlock, CopyField, Loading } from '../components.tsx';
import { useAction, useLoad } from '../hooks.ts';
import { Link } from '../router.tsx';

/** An example body for the curl line: the required attributes (or a few), with plausible values. */
export function sampleAttributes(attributes: Workflow['attributes']): Record<string, unknown> {
  const entries = Object.entries(attributes);
  const chosen = entries.filter(([, d]) => d.required).length > 0 ? entries.filter(([, d]) => d.required) : entries.slice(0, 2);
  const sample: Record<string, unknown> = {};
  for (const [name, declaration] of chosen) {
    if (declaration.enum?.length) sample[name] = declaration.enum[0];
    else if (declaration.type === 'string') sample[name] = { email: 'customer@example.com', uri: 'https://example.com/order/42', 'date-time': '2025-01-31T09:30:00Z', date: '2025-01-31' }[declaration.format ?? ''] ?? 'Example text';
    else sample[name] = { integer: 1, number: 9.5, boolean: true, object: {}, array: [], any: 'anything' }[declaration.type] ?? null;
  }
  if (chosen.length === 0) sample.summary = 'Printer on floor 3 is jammed';
  return sample;
}

function curlExample(url: string, body: Record<string, unknown>): string {
  return [`curl -X POST '${url}' \\`, `  -H 'Content-Type: application/json' \\`, `  -d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`].join('\n');
}

function IncomingWebhook({ workflow, onUrl }: { workflow: Workflow; onUrl: (url: string) => void }) {
  const existing = useLoad(
    () =>
      api.get<{ webhook: Webhook }>(`/workflows/${workflow.id}/webhook`).then(
        (r) => r.webhook,
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null; // none generated yet
          throw error;
        },
      ),
    [workflow.id],
  );
  const [generated, setGenerated] = useState<Webhook | null>(null);
  const generate = useAction(async () => {
    const { webhook } = await api.post<{ webhook: Webhook }>(`/workflows/${workflow.id}/webhook`);
    setGenerated(webhook);
  });
  const webhook = generated ?? existing.data ?? null;
  useEffect(() => {
    if (webhook) onUrl(webhook.url);
  }, [webhook?.url]);
  const blocker =
    workflow.case_source !== 'direct'
      ? `Only workflows whose case source is “direct” take cases from a webhook (this one is “${workflow.case_source}”).`
      : !workflow.published
        ? 'Publish the workflow first: only a published workflow can have an incoming webhook.'
        : null;

  if (existing.loading && !webhook) return <Loading label="Looking for an existing webhook URL…" />;
  if (existing.error) return <Alert tone="error">{existing.error}</Alert>;
  if (webhook)
    return (
      <div class="stack stack--tight">
        {!workflow.published && <Alert tone="warning">This workflow is unpublished: the URL answers 401 until you publish it again.</Alert>}
        <CopyField label="Webhook URL" value={webhook.url} copyLabel="Copy URL" hint="Anyone who has this URL can create cases in this workflow: keep it secret, like a password. It stays the same across versions." />
        <CodeBlock label="Try it with curl" code={curlExample(webhook.url, sampleAttributes(workflow.attributes))} />
        <p class="hint">The JSON object you post becomes the new case’s attributes. The answer is 201 with the case id; the case shows up under <Link href={`/cases?workflow_id=${workflow.id}&source=Webhook`}>Cases</Link> with source Webhook.</p>
      </div>
    );
  return (
    <div class="stack stack--tight">
      {blocker && (
        <p class="hint" id="webhook-blocker">
          {blocker}
        </p>
      )}
      {generate.error !== null && <Alert tone="error">{errorMessage(generate.error)}</Alert>}
      <div>
        <button type="button" class="button button--primary" onClick={() => generate.run()} disabled={generate.pending || blocker !== null} aria-describedby={blocker ? 'webhook-blocker' : undefined}>
          {generate.pending ? 'Generating…' : 'Generate webhook URL'}
        </button>
      </div>
    </div>
  );
}

export function CaseConfiguration({ workflow }: { workflow: Workflow }) {
  // The service's public address (PUBLIC_BASE_URL) shows in the webhook URL; until there is one, this page's.
  const [webhookUrl, setWebhookUrl] = useState<string | null>(null);
  const base = webhookUrl ? new URL(webhookUrl).origin : window.location.origin;
  const casesUrl = `${base}/api/external/v1/workflows/${workflow.id}/cases`;
  return (
    <section class="stack" aria-labelledby="case-sources">
      <div>
        <h2 id="case-sources" class="section-title">
          Case Sources
        </h2>
        <p class="muted">Where this workflow’s cases come from.</p>
      </div>
      <section class="card" aria-labelledby="incoming-webhook">
        <h3 id="incoming-webhook" class="card__title">
          Incoming Webhook
        </h3>
        <p>Any system that can send an HTTP POST with a JSON body can create cases here, with no token to manage: the secret is part of the URL.</p>
        <IncomingWebhook workflow={workflow} onUrl={setWebhookUrl} />
      </section>
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
    </section>
  );
}
