import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ChannelSecretRows } from '../../../shared/database/channel-secret-rows.js';
import { WorkflowFormOrmEntity } from './workflow-form.orm-entity.js';

@Injectable()
export class TypeOrmRequestFormStore extends ChannelSecretRows {
  constructor(@InjectRepository(WorkflowFormOrmEntity) rows: Repository<WorkflowFormOrmEntity>) {
    super(rows);
  }
}
