import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * The run's PostgreSQL databases, on the machine's server: the admin connection, and the
 * teardown that drops what the run made. Kept apart from test-db.ts (no Vitest, no app), so
 * that a plain process can load it after the run has ended (`drop-run.ts`).
 */

/** The machine's PostgreSQL (CI has one); each test file gets a fresh database in it. */
export const adminUrl =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function adminQuery(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A few connections at a time: PostgreSQL allows 100 in all. */
const DROP_LANES = 8;

/**
 * Drops the databases a run's files made (`qless_<test|e2e>_<run>_<random>`), several at once
 * so that their checkpoints are shared, then the run's template.
 */
export async function dropRunDatabases(template: string): Promise<void> {
  const run = /^qless_template_([0-9a-f]+)$/.exec(template)?.[1];
  if (!run) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  let names: string[];
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'select datname from pg_database where datname ~ $1',
      [`^qless_(test|e2e)_${run}_[0-9a-f]+$`],
    );
    names = rows.map((row) => row.datname);
  } finally {
    await admin.end();
  }
  const lanes = Array.from({ length: Math.min(DROP_LANES, names.length) }, async (_, lane) => {
    for (let i = lane; i < names.length; i += DROP_LANES) {
      await adminQuery(`drop database if exists ${names[i]} with (force)`);
    }
  });
  await Promise.all(lanes);
  await adminQuery(`drop database if exists ${template} with (force)`);
}

/**
 * The run's teardown: the drops go on in a process of their own, detached, so that `npm test`
 * ends when its last test does. About 150 databases took 7 to 12 s to drop at the end of each
 * run (every DROP DATABASE waits for a checkpoint), seconds in which no test ran (decision
 * 148). The process is this Node with tsx's loader; a failure is written to
 * `<tmpdir>/qless-test-drops.log` (what it leaves behind is disk only, in databases named
 * `qless_test_*` and `qless_e2e_*`).
 */
export function dropRunDatabasesLater(template: string): void {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./drop-run.ts', import.meta.url)), template],
    { detached: true, stdio: 'ignore', env: process.env },
  );
  child.unref();
}
