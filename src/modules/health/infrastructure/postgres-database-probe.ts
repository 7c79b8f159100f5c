import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { DatabaseProbe } from '../application/database-probe.js';

@Injectable()
export class PostgresDatabaseProbe extends DatabaseProbe {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }
}
