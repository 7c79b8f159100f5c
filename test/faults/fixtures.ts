/**
 * What each scenario works on, set up through the HTTP APIs of a running API process: its own
 * organization, a published direct workflow whose Open run stamps the case and closes it, an
 * API token, the webhook URL, and a case.closed subscription to the runner's receiver (one path
 * per scenario).
 */
import { type Receiver, type ReceivedRequest, startReceiver } from '../support/automation-helpers.js';
import { createOrganization, createToken, createWorkflow, generateWebhook, type Organization } from '../support/scenario.js';
import type { ServiceProcess } from '../support/service-process.js';
import { subscribe } from '../support/subscription-helpers.js';
import type { TestApp } from '../support/test-app.js';

const STAMP = { set_attributes: { seen: '{{ case.id }}' } };
const CLOSE = { close: { outcome: 'Done' } };

/** The Open run of every scenario. */
export const OPEN_RUN = [STAMP, CLOSE];

/**
 * The Open run with a request to the receiver between its steps, answered after `callMs`: runs
 * are held under their lease while it is under way (a killed worker leaves them so).
 */
export function openRunWithCall(receiver: EventReceiver, key: string, callMs: number): unknown[] {
  const path = `/${key}-call`;
  receiver.delays.set(path, callMs);
  return [STAMP, { http_request: { method: 'POST', url: receiver.url + path, body: { case_id: '{{ case.id }}' } } }, CLOSE];
}

export interface Fixture {
  org: Organization;
  apiToken: string;
  workflowId: number;
  /** Path and query of the webhook URL. */
  webhookPath: string;
  subscriptionId: number;
  /** Path of the receiver this scenario's deliveries go to. */
  receiverPath: string;
}

/** The receiver of every scenario's deliveries: answers 200, after the delay set for the path (none by default). */
export interface EventReceiver extends Receiver {
  delays: Map<string, number>;
}

export async function startEventReceiver(): Promise<EventReceiver> {
  const delays = new Map<string, number>();
  const receiver = await startReceiver((_n, request) => ({ status: 200, delayMs: delays.get(request.url) }));
  return Object.assign(receiver, { delays });
}

/** `deliveryDelayMs`: how long the receiver takes to answer this scenario's deliveries (a subscriber's own latency). */
export async function setUpWorkflow(api: ServiceProcess, receiver: EventReceiver, key: string, openRun: unknown[], deliveryDelayMs = 0): Promise<Fixture> {
  // The scenario helpers only ever call request(), which a ServiceProcess has.
  const t = api as Pick<TestApp, 'request'> as TestApp;
  const org = await createOrganization(t, `Faults ${key}`);
  const { secret } = await createToken(t, org, 'api');
  const workflowId = await createWorkflow(t, org, {
    name: `Faults ${key}`,
    case_source: 'direct',
    sensitive_data: false,
    automations: { Open: openRun },
  });
  const webhook = await generateWebhook(t, org, workflowId);
  const receiverPath = `/${key}`;
  receiver.delays.set(receiverPath, deliveryDelayMs);
  const subscription = await subscribe(t, org, { url: receiver.url + receiverPath, events: ['case.closed'], workflow_ids: [workflowId] });
  return { org, apiToken: secret, workflowId, webhookPath: webhook.path, subscriptionId: subscription.id, receiverPath };
}

/** The webhook-id of every request the receiver got at this fixture's path, repeats included. */
export function receivedIds(receiver: Receiver, fx: Fixture): string[] {
  return receiver.requests.filter((r: ReceivedRequest) => r.url === fx.receiverPath).map((r) => String(r.headers['webhook-id']));
}
