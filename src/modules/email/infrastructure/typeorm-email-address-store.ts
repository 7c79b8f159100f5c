import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ChannelSecretRows } from '../../../shared/database/channel-secret-rows.js';
import { WorkflowEmailAddressOrmEntity } from './workflow-email-address.orm-entity.js';

@Injectable()
export class TypeOrmEmailAddressStore extends ChannelSecretRows {
  constructor(@InjectRepository(WorkflowEmailAddressOrmEntity) rows: Repository<WorkflowEmailAddressOrmEntity>) {
    super(rows);
  }
}
