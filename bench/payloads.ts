/**
 * Request bodies of the benchmark: a plausible ~2 KB e-commerce support ticket (nested objects,
 * arrays, unicode, an integer beyond 2^53), in a few variants so that not every request is
 * byte-identical, and ~1 KB attributes for the rows inserted in bulk by the cost-growth step.
 */

import { randomBytes } from 'node:crypto';
import { exampleDefinition } from '../src/modules/workflows/domain/example-definition.js';

/** The typed attributes of the benchmark workflows: the contract example's schema, plus the `stage` the automations set. */
export const BENCH_ATTRIBUTES = { ...exampleDefinition().attributes, stage: { type: 'string' } };

const VARIANTS = 8;

function line(sku: string, name: string, qty: number, unit: number, extra: Record<string, unknown> = {}) {
  return { sku, name, quantity: qty, unit_price: unit, currency: 'EUR', ...extra };
}

/** The JSON text of one ticket (the webhook body, or the `attributes` of a POST case). */
export function ticketAttributesText(variant: number): string {
  const n = 7_340_000 + variant;
  // Written as text so the big integer survives exactly (JSON.stringify cannot emit one).
  const bigId = `${18_446_744_073_709_551n + BigInt(variant)}615`;
  const attributes = {
    customer_email: `kunde.${variant}@haendler.example`,
    priority: (variant % 3) + 1,
    amount: 1249.9 + variant,
    vip: variant % 2 === 0,
    tags: ['retour', 'lieferung', 'zahlung', variant % 2 ? 'express' : 'standard', '優先'],
    order: {
      id: `ORD-2025-${n}`,
      placed_at: '2025-11-21T09:14:03.512Z',
      channel: 'webshop',
      customer: {
        id: `CUS-${90_000 + variant}`,
        name: variant % 2 ? 'Zoë Løvgren-Müller' : 'José Ñúñez Çelik',
        locale: 'de-AT',
        phone: '+43 1 234 5678',
        address: { street: 'Mariahilfer Straße 77/3', postcode: '1060', city: 'Wien', country: 'AT' },
        loyalty: { tier: 'gold', points: 18_250 + variant, since: '2019-03-02' },
      },
      lines: [
        line('SKU-88412-BLK', 'Kopfhörer „Studio Pro“ – schwarz', 1, 299.0, { warranty_years: 2 }),
        line('SKU-11873', 'USB-C Kabel 2 m (geflochten)', 3, 14.99),
        line('SKU-55120-XL', 'Regenjacke Größe XL — Ölzeug', 1, 189.5, { gift: true, message: 'Alles Gute zum Geburtstag! 🎉' }),
        line('SKU-70031', 'Reiseadapter Universal', 2, 24.0),
      ],
      payment: { method: 'card', brand: 'visa', last4: '4242', authorized: true, captured_at: null },
      shipping: { carrier: 'DHL', service: 'express', tracking: [`JJD000390007${variant}8240`, 'JJD0003900071234999'], cost: 9.9 },
      totals: { net: 1041.58, tax: 208.32, gross: 1249.9, discounts: [{ code: 'WINTER10', amount: 25.0 }] },
    },
    issue: {
      category: 'delivery',
      summary: 'Paket als zugestellt markiert, aber nicht angekommen',
      description:
        'Laut Sendungsverfolgung wurde das Paket am 24.11. um 14:02 zugestellt. Bei uns ist nichts angekommen, ' +
        'auch nicht bei den Nachbarn. Bitte um Klärung oder Ersatzlieferung. Danke! 🙏 ' +
        'Customer called twice; second call transferred to tier 2 — “très urgent”.',
      attachments: [
        { name: 'foto_haustür.jpg', size: 482_113, content_type: 'image/jpeg' },
        { name: 'rechnung.pdf', size: 91_204, content_type: 'application/pdf' },
      ],
      reported_via: 'email',
      sentiment: -0.62,
    },
    source_event: { provider: 'shopsystem', event_id: `evt_${n}_a1b2c3`, sequence: 0, delivery_attempt: 1 },
  };
  const text = JSON.stringify(attributes);
  // Splice in the exact big integer where a placeholder number sits.
  return text.replace('"sequence":0', `"sequence":${bigId}`);
}

/** The webhook bodies (the attributes object itself). */
export function webhookBodies(): string[] {
  return Array.from({ length: VARIANTS }, (_, i) => ticketAttributesText(i));
}

/** The POST /cases bodies: subject + attributes. */
export function createCaseBodies(): string[] {
  return Array.from({ length: VARIANTS }, (_, i) => `{"subject":"Zustellung nicht erhalten – Bestellung ${7_340_000 + i}","attributes":${ticketAttributesText(i)}}`);
}

/** SQL expression of ~1 KB attributes for row `g` of a generate_series (cost-growth step). */
export const BULK_ATTRIBUTES_SQL = `jsonb_build_object(
  'customer_email', 'bulk.' || g || '@example.com',
  'priority', 1 + g % 3,
  'amount', (g % 100000) / 100.0,
  'vip', g % 7 = 0,
  'tags', jsonb_build_array('bulk', 'growth', 'tag-' || (g % 50)),
  'order', jsonb_build_object('id', 'ORD-' || g, 'lines', jsonb_build_array(
      jsonb_build_object('sku', 'SKU-' || (g % 997), 'quantity', 1 + g % 4, 'unit_price', 19.99),
      jsonb_build_object('sku', 'SKU-' || (g % 991), 'quantity', 1, 'unit_price', 5.5)),
    'note', repeat(md5(g::text), 22)))`;

/**
 * A webhook body of `bytes` bytes (the 1 MB limit is 1,048,576): the ticket with a `notes`
 * member of base64 text, which Postgres can compress little, as a sender's attached file.
 */
export function bigWebhookBody(bytes: number): string {
  const ticket = ticketAttributesText(0);
  const room = bytes - Buffer.byteLength(ticket) - ',"notes":""'.length;
  if (room <= 0) throw new Error(`a body of ${bytes} bytes cannot hold the ticket`);
  const notes = randomBytes(Math.ceil((room * 3) / 4)).toString('base64').slice(0, room);
  return `${ticket.slice(0, -1)},"notes":"${notes}"}`;
}
