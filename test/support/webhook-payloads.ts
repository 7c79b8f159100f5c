import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One GitHub webhook event and the example payloads @octokit/webhooks-examples holds for it. */
export interface WebhookEventExamples {
  name: string;
  examples: Record<string, unknown>[];
}

/** The api.github.com examples of @octokit/webhooks-examples: real payloads nobody here wrote. */
export function githubWebhookExamples(): WebhookEventExamples[] {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('@octokit/webhooks-examples/package.json'));
  return JSON.parse(readFileSync(join(packageDir, 'api.github.com', 'index.json'), 'utf8')) as WebhookEventExamples[];
}

/**
 * At most `cap` examples, taken round-robin (every event's first example, then every event's
 * second, ...), so every event is covered once `cap` is at least the number of events.
 */
export function pickExamples(events: WebhookEventExamples[], cap: number): WebhookEventExamples[] {
  const picked = events.map(({ name }) => ({ name, examples: [] as Record<string, unknown>[] }));
  let total = 0;
  for (let round = 0; total < cap; round++) {
    const before = total;
    events.forEach((event, i) => {
      if (total < cap && round < event.examples.length) {
        picked[i]!.examples.push(event.examples[round]!);
        total++;
      }
    });
    if (total === before) break;
  }
  return picked.filter((event) => event.examples.length > 0);
}
