/**
 * The server's command line (bundled as dist/cli.mjs; `npm run migrate` in a checkout):
 *   migrate          runs this release's pending migrations once, then exits (decision 027)
 *   create-operator  --email E --password P [--name N]: the platform team's first account
 *   backup           [--prune]: database + uploads into BACKUP_DIR (decision 030)
 *   restore          --from <backup> [--into <empty database URL | new DATA_DIR>] [--force]
 * All read the server's settings (DATABASE_URL or DATA_DIR) from the environment.
 */

import { runBackupCli, runRestoreCli } from '../backup/cli.js';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { MigrationError, migrateToLatest } from '../db/migrate.js';
import { DatabaseUnavailableError, describeError } from '../db/pg-pool.js';
import { createOperator } from './create-operator.js';

const USAGE =
  'usage: qless migrate | qless create-operator --email E --password P [--name N] | qless backup [--prune] | qless restore --from <backup> [--into <target>] [--force]';

/** Exits 0 with one line saying what it did, or 1 with one line saying why not. */
async function migrate(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`migrate: ${err.message.replaceAll('\n', ' ')}`);
      process.exit(1);
    }
    throw err;
  }
  const started = performance.now();
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      // An index on a big table may take minutes: the command waits as long as the check allows.
      timeouts: { ...config.databaseTimeouts, statementMs: 600_000 },
    });
    try {
      const applied = await migrateToLatest(database.db);
      const ms = Math.round(performance.now() - started);
      console.log(
        applied.length === 0
          ? `migrate: the database (${database.engine}) is up to date; nothing to do (${ms} ms)`
          : `migrate: applied ${applied.length} migration(s) on ${database.engine} in ${ms} ms: ${applied.join(', ')}`,
      );
    } finally {
      await database.close();
    }
  } catch (err) {
    const explained = err instanceof MigrationError || err instanceof DatabaseUnavailableError;
    console.error(`migrate: ${explained ? (err as Error).message : describeError(err)}`);
    process.exit(1);
  }
}

const [command, ...args] = process.argv.slice(2);
if (command === 'migrate' && args.length === 0) {
  await migrate();
} else if (command === 'create-operator') {
  await createOperator(args).catch((err: unknown) => {
    console.error(`create-operator: ${(err as Error).message}`);
    process.exit(1);
  });
} else if (command === 'backup') {
  process.exit(await runBackupCli(args));
} else if (command === 'restore') {
  process.exit(await runRestoreCli(args));
} else {
  console.error(USAGE);
  process.exit(2);
}
