import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { IdParamPipe } from '../../shared/http/id-param.pipe.js';
import { RequiresToken } from '../tokens/bearer-token.guard.js';
import type { Principal as Caller } from '../tokens/principal.js';
import { Principal } from '../tokens/principal.decorator.js';
import { CreateSubscriptionRequest } from './create-subscription.request.js';
import { ListDeliveriesRequest } from './list-deliveries.request.js';
import { SubscriptionsService } from './subscriptions.service.js';

const SubscriptionId = () => Param('subscriptionId', new IdParamPipe('subscription'));

@Controller('api/admin/v1/subscriptions')
@RequiresToken('admin')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Post()
  create(@Principal() caller: Caller, @Body() body: CreateSubscriptionRequest) {
    return this.subscriptions.create(caller.organizationId, body);
  }

  @Get()
  async list(@Principal() caller: Caller) {
    return { subscriptions: await this.subscriptions.list(caller.organizationId) };
  }

  @Delete(':subscriptionId')
  @HttpCode(204)
  async delete(@Principal() caller: Caller, @SubscriptionId() id: number) {
    await this.subscriptions.delete(caller.organizationId, id);
  }

  @Get(':subscriptionId/deliveries')
  async deliveries(@Principal() caller: Caller, @SubscriptionId() id: number, @Query() query: ListDeliveriesRequest) {
    return { deliveries: await this.subscriptions.deliveries(caller.organizationId, id, query.limit ? Number(query.limit) : 100) };
  }
}
