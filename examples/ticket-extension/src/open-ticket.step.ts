import { Injectable } from '@nestjs/common';
import { StepType, type StepContext, type StepOutcome, type StepTypeDefinition } from 'case-intake-service/extension-api';

export interface OpenTicketArguments {
  /** The ticketing API's endpoint that creates a ticket. */
  url: string;
  /** The ticket's title; `{{ case.* }}` and `{{ attributes.* }}` templates are filled in. */
  title: string;
  /** An organization secret sent as `Authorization: Bearer <value>`. */
  token_secret?: string;
  /** The attribute that receives the new ticket's id. */
  save_as?: string;
  retries?: number;
}

const DEFAULT_RETRIES = 2;
const FIRST_BACKOFF_MS = 1_000;

/**
 * Opens a ticket in an outside ticketing system for the case and keeps the ticket's id on the
 * case: POST {"title", "case_id"} to `url`, which answers {"id": ...}. The request goes through
 * the service's guarded client, so a url aimed at a private address is refused as an
 * http_request step's would be.
 */
@StepType()
@Injectable()
export class OpenTicketStep implements StepTypeDefinition<OpenTicketArguments> {
  readonly type = 'open_ticket';
  readonly external = true;
  readonly argumentsSchema = {
    type: 'object',
    description: 'Opens a ticket in the outside ticketing system and stores its id on the case.',
    required: ['url', 'title'],
    additionalProperties: false,
    properties: {
      url: { type: 'string', pattern: '^https?://[^{}]+$', description: 'The endpoint that creates a ticket (no templates).' },
      title: { type: 'string', minLength: 1, description: 'The ticket\'s title; templates allowed.' },
      token_secret: { type: 'string', pattern: '^[A-Z][A-Z0-9_]{0,63}$', description: 'The organization secret sent as a Bearer token.' },
      save_as: { type: 'string', minLength: 1, default: 'ticket_id', description: 'The attribute that receives the ticket id.' },
      retries: { type: 'integer', minimum: 0, maximum: 5, default: DEFAULT_RETRIES, description: 'Retries, with backoff from 1 second, when the API fails or cannot be reached.' },
    },
  };

  async run(context: StepContext<OpenTicketArguments>): Promise<StepOutcome> {
    const { url, title, token_secret: secret, save_as: saveAs = 'ticket_id', retries = DEFAULT_RETRIES } = context.arguments;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (secret) {
      const { found, missing } = await context.secrets([secret]);
      if (missing.length) return { kind: 'fail', error: `${this.type}: secret ${secret} does not exist` };
      headers.authorization = `Bearer ${found[secret]}`;
    }
    const body = JSON.stringify({ title: String(context.render(title)), case_id: context.case.id });
    let failure: string;
    try {
      const response = await context.http.send({ method: 'POST', url, headers, body, timeoutMs: 10_000 });
      if (response.status >= 200 && response.status < 300) return this.opened(response.text, saveAs, context);
      failure = `${url} answered ${response.status}`;
    } catch (err) {
      failure = `${url} failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (context.attempt >= retries) return { kind: 'fail', error: `${this.type}: ${failure} (after ${retries} retries)` };
    return { kind: 'retry', delayMs: FIRST_BACKOFF_MS * 2 ** context.attempt, error: failure };
  }

  private opened(text: string, saveAs: string, context: StepContext<OpenTicketArguments>): StepOutcome {
    const id = ticketId(text);
    if (id === undefined) return { kind: 'fail', error: `${this.type}: the ticketing API answered without a ticket id` };
    context.log.info('ticket opened', { ticket_id: id });
    return { kind: 'change', attributes: { [saveAs]: id }, note: { ticket_id: id } };
  }
}

/** The `id` of a JSON answer such as {"id": "T-42"}, when it is a string or a number. */
function ticketId(text: string): string | number | undefined {
  try {
    const id = (JSON.parse(text) as { id?: unknown } | null)?.id;
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}
