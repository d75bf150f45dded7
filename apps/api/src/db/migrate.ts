import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as m001 from './migrations/001-initial.js';
import * as m002 from './migrations/002-organization-time-zone-required.js';
import * as m004 from './migrations/004-client-limits.js';
import type { DB } from './schema.js';

/** Migrations are listed in code (not read from disk) so they ship with any bundle. */
const migrations: Record<string, Migration> = {
  '001-initial': m001,
  '002-organization-time-zone-required': m002,
  '004-client-limits': m004,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<DB>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
