import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Env } from '../config/env.js';
import { createRedisClient, RedisClient } from './redis.client.js';

@Global()
@Module({
  providers: [{ provide: RedisClient, inject: [Env], useFactory: (env: Env) => createRedisClient(env.REDIS_URL) }],
  exports: [RedisClient],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(RedisClient) private readonly redis: RedisClient) {}

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
