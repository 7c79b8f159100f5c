import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { column } from '../../../shared/database/typed-statement.js';
import { rowsOf, statement } from './persistence.js';
import { DatabaseProbe } from '../application/database-probe.js';

const PING = statement('SELECT 1', { '?column?': column.int4 });

@Injectable()
export class PostgresDatabaseProbe extends DatabaseProbe {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async ping(): Promise<void> {
    await rowsOf(this.dataSource, PING);
  }
}
