import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options.js';

/**
 * Applies pending migrations; safe to run from several instances at once (TypeORM takes an
 * advisory lock). `before`: only those before the migration of that name (tests and benches of
 * a migration on a populated database).
 */
export async function runMigrations(databaseUrl: string, options: { before?: string } = {}): Promise<string[]> {
  const all = dataSourceOptions({ DATABASE_URL: databaseUrl });
  const migrations = all.migrations as (new () => { name?: string })[];
  const until = options.before === undefined ? migrations.length : migrations.findIndex((m) => new m().name === options.before);
  const source = new DataSource({ ...all, migrations: migrations.slice(0, until), migrationsTransactionMode: 'each' } as typeof all);
  await source.initialize();
  try {
    const applied = await source.runMigrations();
    return applied.map((m) => m.name);
  } finally {
    await source.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is required');
    process.exit(1);
  }
  runMigrations(url).then(
    (names) => console.log(names.length ? `applied: ${names.join(', ')}` : 'no pending migrations'),
    (err: unknown) => {
      console.error(`migration failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
