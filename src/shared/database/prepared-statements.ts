import type pg from 'pg';
import type { DataSource } from 'typeorm';

/**
 * Runs a named prepared statement on TypeORM's own pg pool. Postgres parses and plans a named
 * statement once per connection instead of on every request: for the hot intake and read
 * statements that saves a measurable share of the database's CPU.
 */
export class PreparedStatements {
  private readonly pool: pg.Pool;

  constructor(dataSource: DataSource) {
    this.pool = (dataSource.driver as unknown as { master: pg.Pool }).master;
  }

  async rows<T>(name: string, text: string, values: unknown[]): Promise<T[]> {
    const result = await this.pool.query({ name, text, values });
    return result.rows as T[];
  }
}
