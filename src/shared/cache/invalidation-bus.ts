import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Env } from '../config/env.js';
import { LOGGER, type Logger } from '../logging/logger.js';
import { RedisClient } from '../redis/redis.client.js';

type Listener = (message: string) => void;

/**
 * Tells every instance to drop cached entries (revoked tokens, unpublished workflows,
 * rotated webhook tokens) through Redis pub/sub.
 *
 * A message can be missed only while the subscription is down, so caches must not serve
 * from memory unless `isLive()`; every listener is also called with `null` (forget
 * everything) when the subscription drops or comes back.
 */
@Injectable()
export class InvalidationBus implements OnModuleInit, OnApplicationShutdown {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly resetListeners = new Set<() => void>();
  private subscriber?: Redis;
  private live = false;

  constructor(
    private readonly env: Env,
    private readonly publisher: RedisClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.subscriber = new Redis(this.env.REDIS_URL, { maxRetriesPerRequest: null, retryStrategy: (n: number) => Math.min(n * 200, 2000) });
    this.subscriber.on('error', () => this.setLive(false));
    this.subscriber.on('close', () => this.setLive(false));
    this.subscriber.on('ready', () => {
      this.subscriber!.subscribe(this.channel()).then(
        () => this.setLive(true),
        (err: unknown) => this.logger.warn({ err: String(err) }, 'cache invalidation subscribe failed'),
      );
    });
    this.subscriber.on('message', (_channel: string, raw: string) => this.deliver(raw));
  }

  async onApplicationShutdown(): Promise<void> {
    this.live = false;
    this.subscriber?.disconnect();
  }

  isLive(): boolean {
    return this.live;
  }

  on(topic: string, listener: Listener, onReset: () => void): void {
    if (!this.listeners.has(topic)) this.listeners.set(topic, new Set());
    this.listeners.get(topic)!.add(listener);
    this.resetListeners.add(onReset);
  }

  /** Drops the entry here at once, then on every other instance. */
  async publish(topic: string, message: string): Promise<void> {
    const raw = JSON.stringify([topic, message]);
    this.deliver(raw);
    try {
      await this.publisher.publish(this.channel(), raw);
    } catch {
      // Redis is down: every instance's subscription is down too, so their caches are off.
    }
  }

  private deliver(raw: string): void {
    const [topic, message] = JSON.parse(raw) as [string, string];
    for (const listener of this.listeners.get(topic) ?? []) listener(message);
  }

  private setLive(live: boolean): void {
    if (this.live !== live) for (const reset of this.resetListeners) reset();
    this.live = live;
  }

  private channel(): string {
    return `${this.env.REDIS_PREFIX}:cache-invalidation`;
  }
}
