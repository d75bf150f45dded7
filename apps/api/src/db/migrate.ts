import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
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
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** A migration (or the migrator itself) failed; the message names which and why, in one line. */
export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

export async function migrateToLatest(db: Kysely<DB>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  // A migration may keep the database busy and silent for long (an index on a big table).
  const { error, results } = await withoutStallWatch(() => migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    // Kysely reports a failure before any migration ran (database away, lock) with no name.
    const which = failed ? `Migration ${failed.migrationName}` : 'Migrating the database';
    throw new MigrationError(`${which} failed: ${describeError(error)}`, { cause: error });
  }
}
