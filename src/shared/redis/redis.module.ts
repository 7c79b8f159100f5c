import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Env } from '../config/env.js';
import { createRedisClient, REDIS_CLIENT, type RedisConnection } from './redis.client.js';

@Global()
@Module({
  providers: [{ provide: REDIS_CLIENT, inject: [Env], useFactory: (env: Env) => createRedisClient(env) }],
  exports: [REDIS_CLIENT],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: RedisConnection) {}

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
