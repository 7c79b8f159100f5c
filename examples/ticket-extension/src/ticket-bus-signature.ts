import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How the ticket bus signs what it sends: `X-Ticket-Bus-Signature: t=<unix seconds>,v1=<hex>`,
 * the HMAC-SHA256 of `<t>.<body>` with the secret the bus and the organization share. The
 * timestamp bounds how long a captured message can be replayed.
 */
export const SIGNATURE_HEADER = 'x-ticket-bus-signature';

const SIGNATURE = /^t=([0-9]{1,12}),v1=([0-9a-f]{64})$/;

function mac(secret: string, timestamp: string, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
}

/** The header value the bus sends with `body` at `nowSeconds` (what its client library does; used by the tests). */
export function signTicketBusMessage(secret: string, body: Buffer, nowSeconds: number): string {
  const timestamp = String(Math.floor(nowSeconds));
  return `t=${timestamp},v1=${mac(secret, timestamp, body).toString('hex')}`;
}

/** Whether `header` signs `body` with `secret` at a time within `toleranceSeconds` of `nowSeconds`, either way. */
export function verifyTicketBusSignature(header: string | undefined, secret: string, body: Buffer, nowSeconds: number, toleranceSeconds: number): boolean {
  const match = header === undefined ? null : SIGNATURE.exec(header.trim());
  if (!match) return false;
  const [, timestamp, hex] = match;
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false;
  return timingSafeEqual(mac(secret, timestamp!, body), Buffer.from(hex!, 'hex'));
}
