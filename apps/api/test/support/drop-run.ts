import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropRunDatabases } from './run-databases.js';

/**
 * `node --import tsx drop-run.ts <template>`: drops a finished run's databases and its
 * template, started detached by the run's teardown (`dropRunDatabasesLater`).
 */
const template = process.argv[2] ?? '';
try {
  await dropRunDatabases(template);
} catch (err) {
  appendFileSync(
    join(tmpdir(), 'qless-test-drops.log'),
    `${new Date().toISOString()} ${template}: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exitCode = 1;
}
