import { Injectable } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { Env } from '../../../shared/config/env.js';
import { OutboundHttp } from '../../../shared/outbound/outbound-http.js';
import { keepLease } from '../../../shared/queue/lease.js';
import { type SecretBinding, SecretBox } from '../../../shared/crypto/secret-box.js';
import { previousSubscriptionSecretBinding, subscriptionSecretBinding } from '../../../shared/crypto/stored-secrets.js';
import { retryDelayMs } from '../domain/delivery-schedule.js';
import { type AttemptResult, type ClaimedDelivery, DeliveryAttempts } from '../domain/delivery-attempts.js';

const TIMEOUT_MS = 10_000;
/**
 * How long a sender holds a delivery without renewing it (it renews every third of this while
 * it sends). A delivery whose sender died is sent by another worker after this (see Relay).
 */
const LEASE_MS = 6_000;

/**
 * Sends one delivery attempt, signed per Standard Webhooks (`webhook-id` is the event id, so
 * receivers can drop a repeat), and records it. 2xx is delivered; anything else is retried.
 */
@Injectable()
export class DeliverySender {
  constructor(
    private readonly deliveries: DeliveryAttempts,
    private readonly http: OutboundHttp,
    private readonly env: Env,
    private readonly secrets: SecretBox,
  ) {}

  async deliver(deliveryId: number): Promise<void> {
    const delivery = await this.deliveries.claim(deliveryId, LEASE_MS);
    if (!delivery) return;
    const releaseLease = keepLease(() => this.deliveries.renewLease(delivery, LEASE_MS), LEASE_MS);
    try {
      const result = await this.send(delivery);
      await this.deliveries.recordAttempt(delivery, result, retryDelayMs(this.env.DELIVERY_RETRY_BASE_MS, delivery.attempt), this.env.DELIVERY_DISABLE_AFTER_MS);
    } finally {
      releaseLease();
    }
  }

  /**
   * `v1,<signature>` with the current secret and, for a day after a rotation, also with the
   * previous one, space-separated as Standard Webhooks allows: receivers verify with either.
   */
  private signatures(delivery: ClaimedDelivery, at: Date, body: string): string {
    const sign = (sealed: string, binding: SecretBinding) => new Webhook(this.secrets.open(sealed, binding)).sign(delivery.eventId, at, body);
    const current = sign(delivery.secretCiphertext, subscriptionSecretBinding(delivery.subscriptionId));
    if (delivery.previousSecretCiphertext === null) return current;
    return `${current} ${sign(delivery.previousSecretCiphertext, previousSubscriptionSecretBinding(delivery.subscriptionId))}`;
  }

  private async send(delivery: ClaimedDelivery): Promise<AttemptResult> {
    const body = `{"id":${JSON.stringify(delivery.eventId)},"type":${JSON.stringify(delivery.eventType)},"timestamp":"${delivery.eventAt.toISOString()}","data":{"case":${delivery.caseJson}${delivery.detailsJson ? `,${delivery.detailsJson.slice(1, -1)}` : ''}}}`;
    const now = new Date();
    const signature = this.signatures(delivery, now, body);
    try {
      const response = await this.http.send({
        method: 'POST',
        url: delivery.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'case-intake-webhooks/1',
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
        timeoutMs: TIMEOUT_MS,
      });
      const delivered = response.status >= 200 && response.status < 300;
      return { statusCode: response.status, error: delivered ? null : `answered ${response.status}`, delivered };
    } catch (err) {
      return { statusCode: null, error: err instanceof Error ? err.message : String(err), delivered: false };
    }
  }
}
