import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import * as m001 from './migrations/001-initial.js';
import * as m002 from './migrations/002-organization-time-zone-required.js';
import * as m003 from './migrations/003-payment-review-and-callback-budget.js';
import * as m004 from './migrations/004-client-limits.js';
import * as m005 from './migrations/005-identity-and-organizations.js';
import * as m006 from './migrations/006-check-in-scans.js';
import * as m007 from './migrations/007-customer-self-service.js';
import * as m008 from './migrations/008-messages-outbox.js';
import * as m009 from './migrations/009-catalogue-search.js';
import * as m010 from './migrations/010-read-cache-invalidation.js';
import * as m011 from './migrations/011-payments-due-index.js';
import * as m012 from './migrations/012-organization-public-email.js';
import * as m013 from './migrations/013-organization-days-and-contact-details.js';
import * as m014 from './migrations/014-queue.js';
import * as m015 from './migrations/015-booking-no-show-by.js';
import * as m016 from './migrations/016-insight-indexes.js';
import * as m017 from './migrations/017-visit-feedback.js';
import * as m018 from './migrations/018-waitlist.js';
import * as m019 from './migrations/019-branches.js';
import * as m020 from './migrations/020-personal-data-retention.js';
import * as m021 from './migrations/021-audit-log.js';
import * as m022 from './migrations/022-request-ids.js';
import * as m023 from './migrations/023-simulator-collects.js';
import * as m024 from './migrations/024-queue-counter-safety.js';
import * as m025 from './migrations/025-queue-join-code.js';
import * as m026 from './migrations/026-kiosks.js';
import * as m027 from './migrations/027-sms-join.js';
import * as m028 from './migrations/028-queue-fair-order.js';
import * as m029 from './migrations/029-queue-routing.js';
import * as m030 from './migrations/030-message-useful-until.js';
import * as m031 from './migrations/031-ticket-link-codes.js';
import * as m032 from './migrations/032-web-push.js';
import * as m033 from './migrations/033-message-budget.js';
import * as m034 from './migrations/034-whatsapp.js';
import { describeError, withoutStallWatch } from './pg-pool.js';
import type { DB } from './schema.js';

/** Migrations are listed in code (not read from disk) so they ship with any bundle. */
const migrations: Record<string, Migration> = {
  '001-initial': m001,
  '002-organization-time-zone-required': m002,
  '003-payment-review-and-callback-budget': m003,
  '004-client-limits': m004,
  '005-identity-and-organizations': m005,
  '006-check-in-scans': m006,
  '007-customer-self-service': m007,
  '008-messages-outbox': m008,
  '009-catalogue-search': m009,
  '010-read-cache-invalidation': m010,
  '011-payments-due-index': m011,
  '012-organization-public-email': m012,
  '013-organization-days-and-contact-details': m013,
  '014-queue': m014,
  '015-booking-no-show-by': m015,
  '016-insight-indexes': m016,
  '018-waitlist': m018,
  '017-visit-feedback': m017,
  '019-branches': m019,
  '020-personal-data-retention': m020,
  '021-audit-log': m021,
  '022-request-ids': m022,
  '023-simulator-collects': m023,
  '024-queue-counter-safety': m024,
  '025-queue-join-code': m025,
  '026-kiosks': m026,
  '027-sms-join': m027,
  '028-queue-fair-order': m028,
  '029-queue-routing': m029,
  '030-message-useful-until': m030,
  '031-ticket-link-codes': m031,
  '032-web-push': m032,
  '033-message-budget': m033,
  '034-whatsapp': m034,
};

/**
 * Two ledgers (decision 027). `kysely_migration` records 001–019, the migrations every release
 * up to 7432061 knows: those releases run Kysely's Migrator at start, which refuses to start
 * when that table names a migration it does not know ("corrupted migrations"), so a newer
 * migration recorded there would keep the previous release from running against the new
 * schema. Later migrations are recorded in `qless_migration`, read tolerantly: a name this
 * code does not know is a newer release's, and fine.
 */
const KYSELY_LEDGER_LAST = '019-branches';
/** pg_advisory_xact_lock key of the second ledger (Kysely's own lock guards the first). */
const LATER_LEDGER_LOCK = 7_243_061_021;

/** A migration (or the migrator itself) failed; the message names which and why, in one line. */
export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

/** This code's migrations, in the order they run. */
export const migrationNames: readonly string[] = Object.keys(migrations).sort();

async function ledger(db: Kysely<DB>, table: 'kysely_migration' | 'qless_migration') {
  const { rows } = await sql<{ present: boolean }>`
    select to_regclass(${`public.${table}`}) is not null as present`.execute(db);
  if (!rows[0]?.present) return [];
  const names = await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(db);
  return names.rows.map((r) => r.name);
}

/** The migrations of this code the database has not had (none: it is up to date or ahead). */
export async function pendingMigrations(db: Kysely<DB>): Promise<string[]> {
  const done = new Set([
    ...(await ledger(db, 'kysely_migration')),
    ...(await ledger(db, 'qless_migration')),
  ]);
  return migrationNames.filter((name) => !done.has(name));
}

/**
 * Runs this code's pending migrations; returns their names. A database migrated by a newer
 * release (migrations this code does not know) is left as it is.
 */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  const recorded = await withoutStallWatch(() => ledger(db, 'kysely_migration'));
  // A database migrated by a build of before the split keeps its later names where they are.
  const first = migrationNames.filter((n) => n <= KYSELY_LEDGER_LAST || recorded.includes(n));
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries(first.map((n) => [n, migrations[n] as Migration])),
  };
  const migrator = new Migrator({ db, provider });
  // A migration may keep the database busy and silent for long (an index on a big table).
  const { error, results } = await withoutStallWatch(() => migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    // Kysely reports a failure before any migration ran (database away, lock) with no name.
    const which = failed ? `Migration ${failed.migrationName}` : 'Migrating the database';
    throw new MigrationError(`${which} failed: ${describeError(error)}`, { cause: error });
  }
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  const later = migrationNames.filter((n) => !first.includes(n));
  if (later.length > 0) applied.push(...(await withoutStallWatch(() => migrateLater(db, later))));
  return applied;
}

/** The second ledger: all pending later migrations in one transaction, under an advisory lock. */
async function migrateLater(db: Kysely<DB>, later: string[]): Promise<string[]> {
  let running = '';
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${LATER_LEDGER_LOCK})`.execute(trx);
      await sql`create table if not exists qless_migration (
        name text primary key,
        applied_at timestamptz not null default now()
      )`.execute(trx);
      const done = new Set(await ledger(trx, 'qless_migration'));
      const applied: string[] = [];
      for (const name of later.filter((n) => !done.has(n))) {
        running = name;
        await (migrations[name] as Migration).up(trx);
        await sql`insert into qless_migration (name) values (${name})`.execute(trx);
        applied.push(name);
      }
      return applied;
    });
  } catch (error) {
    const which = running ? `Migration ${running}` : 'Migrating the database';
    throw new MigrationError(`${which} failed: ${describeError(error)}`, { cause: error });
  }
}

/** Refuses (MigrationError) a database that lacks some of this code's migrations. */
export async function ensureMigrated(db: Kysely<DB>): Promise<void> {
  const missing = await withoutStallWatch(() => pendingMigrations(db));
  if (missing.length === 0) return;
  throw new MigrationError(
    `the database lacks ${missing.length} migration(s) of this release (${missing.join(', ')}): run the migrate command first (node apps/api/dist/cli.mjs migrate, or npm run migrate)`,
  );
}
