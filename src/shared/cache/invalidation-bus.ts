import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Env } from '../config/env.js';
import { ServiceUnavailableError } from '../errors/app-error.js';
import { LOGGER, type Logger } from '../logging/logger.js';
import { RedisClient } from '../redis/redis.client.js';

type Listener = (message: string) => void;

/** How often each instance sends itself a heartbeat over the channel. */
const HEARTBEAT_MS = 250;
/**
 * Caches are trusted only while this instance heard, within this long, a heartbeat it sent
 * itself. Redis delivers a channel's messages in order, so hearing a heartbeat sent at time S
 * proves every invalidation acknowledged before S was heard too: an entry can be stale for at
 * most this long after the change was answered.
 */
const SILENT_AFTER_MS = 500;
/** A failed or hanging publish is retried after each of these pauses (under 2 s in all, enough for a reconnect). */
const PUBLISH_TIMEOUT_MS = 200;
const PUBLISH_PAUSES_MS = [50, 100, 200, 400];
/** After that, the message is sent again this often, for as long as a cached entry can live. */
const REPUBLISH_EVERY_MS = 250;
export const LONGEST_CACHE_LIFETIME_MS = 60_000;

const HEARTBEAT_PREFIX = 'heartbeat ';

/**
 * Tells every instance to drop cached entries (revoked tokens, unpublished workflows,
 * rotated webhook tokens) through Redis pub/sub.
 *
 * A message can be missed while the subscription is down or silent, so caches must not serve
 * from memory unless `isLive()`: subscribed, and an own heartbeat heard less than
 * SILENT_AFTER_MS ago. Every reset listener is called (forget everything) when the
 * subscription comes back or a heartbeat is heard again after a silence.
 */
@Injectable()
export class InvalidationBus implements OnModuleInit, OnApplicationShutdown {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly resetListeners = new Set<() => void>();
  private readonly instanceId = randomBytes(8).toString('hex');
  private subscriber?: Redis;
  private heartbeat?: NodeJS.Timeout;
  private heartbeatInFlight = false;
  private subscribed = false;
  /** When (performance.now()) the newest own heartbeat that came back was sent. */
  private heardSentAt = -Infinity;

  constructor(
    private readonly env: Env,
    private readonly publisher: RedisClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.subscriber = new Redis(this.env.REDIS_URL, { maxRetriesPerRequest: null, retryStrategy: (n: number) => Math.min(n * 200, 2000) });
    this.subscriber.on('error', () => this.setSubscribed(false));
    this.subscriber.on('close', () => this.setSubscribed(false));
    this.subscriber.on('ready', () => {
      this.subscriber!.subscribe(this.channel()).then(
        () => this.setSubscribed(true),
        (err: unknown) => this.logger.warn({ err: String(err) }, 'cache invalidation subscribe failed'),
      );
    });
    this.subscriber.on('message', (_channel: string, raw: string) => this.receive(raw));
    this.heartbeat = setInterval(() => this.sendHeartbeat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.heartbeat);
    this.subscribed = false;
    this.subscriber?.disconnect();
  }

  /** Cheap enough for every request: no Redis round trip. */
  isLive(): boolean {
    return this.subscribed && performance.now() - this.heardSentAt < SILENT_AFTER_MS;
  }

  on(topic: string, listener: Listener, onReset: () => void): void {
    if (!this.listeners.has(topic)) this.listeners.set(topic, new Set());
    this.listeners.get(topic)!.add(listener);
    this.resetListeners.add(onReset);
  }

  /**
   * Drops the entry here at once, then on every other instance. Call it after the change is
   * committed. When Redis cannot take the message it throws ServiceUnavailableError, so the
   * change is never answered as done while other instances may still trust their copy.
   */
  async publish(topic: string, message: string): Promise<void> {
    const raw = JSON.stringify([topic, message]);
    this.deliver(raw);
    for (let attempt = 0; ; attempt++) {
      try {
        await withTimeout(this.publisher.publish(this.channel(), raw), PUBLISH_TIMEOUT_MS);
        return;
      } catch (err) {
        if (attempt >= PUBLISH_PAUSES_MS.length) {
          this.logger.warn({ topic, err: err instanceof Error ? err.message : String(err) }, 'cache invalidation publish failed');
          this.keepPublishing(raw, performance.now() + LONGEST_CACHE_LIFETIME_MS);
          throw new ServiceUnavailableError();
        }
        await new Promise((resolve) => setTimeout(resolve, PUBLISH_PAUSES_MS[attempt]));
      }
    }
  }

  /**
   * The change is committed but its news did not go out: keep sending it in the background, so
   * other instances hear it as soon as this one reaches Redis again (after that long every
   * cached copy has expired anyway).
   */
  private keepPublishing(raw: string, until: number): void {
    const retry = setTimeout(() => {
      withTimeout(this.publisher.publish(this.channel(), raw), PUBLISH_TIMEOUT_MS).catch(() => {
        if (performance.now() < until) this.keepPublishing(raw, until);
      });
    }, REPUBLISH_EVERY_MS);
    retry.unref();
  }

  private receive(raw: string): void {
    if (raw.startsWith(HEARTBEAT_PREFIX)) return this.heardHeartbeat(raw);
    this.deliver(raw);
  }

  private heardHeartbeat(raw: string): void {
    const [instanceId, sentAt] = raw.slice(HEARTBEAT_PREFIX.length).split(' ');
    if (instanceId !== this.instanceId) return;
    // Back after a silence: start from empty caches rather than trust what was kept meanwhile.
    if (!this.isLive()) this.reset();
    this.heardSentAt = Math.max(this.heardSentAt, Number(sentAt));
  }

  /** The heartbeat this instance must hear back; a hanging Redis gets one at a time. */
  private sendHeartbeat(): void {
    if (this.heartbeatInFlight) return;
    this.heartbeatInFlight = true;
    this.publisher
      .publish(this.channel(), `${HEARTBEAT_PREFIX}${this.instanceId} ${performance.now()}`)
      .catch(() => undefined)
      .finally(() => { this.heartbeatInFlight = false; });
  }

  private deliver(raw: string): void {
    const [topic, message] = JSON.parse(raw) as [string, string];
    for (const listener of this.listeners.get(topic) ?? []) listener(message);
  }

  private setSubscribed(subscribed: boolean): void {
    if (this.subscribed !== subscribed) this.reset();
    this.subscribed = subscribed;
  }

  private reset(): void {
    for (const reset of this.resetListeners) reset();
  }

  private channel(): string {
    return `${this.env.REDIS_PREFIX}:cache-invalidation`;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
