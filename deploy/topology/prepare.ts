/**
 * Before the load: the two releases the rolling deploy goes between (the previous one, from
 * deploy/previous-release, and this checkout), the database migrated by this release's
 * `migrate` command as qless-migrate.service runs it, and one organization whose service has
 * two seats per slot over four weeks, so that customers race for seats.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { bundleApi } from '../../apps/api/build/bundle.js';
import { checkOutRelease } from '../../apps/api/build/previous-release.js';
import { openDatabase } from '../../apps/api/src/db/database.js';
import { createFixture } from '../../apps/api/test/support/fixtures.js';
import { type ApiCommand, ROOT, unitCommand } from './hosts.js';
import { sh } from './net.js';

export interface TopologyFixture {
  orgId: string;
  serviceId: string;
  slotIds: string[];
  dates: string[];
}

const DAYS = 28;
const SEATS = 2;

export interface Releases {
  previous: ApiCommand;
  current: ApiCommand;
  migrate: ApiCommand;
  /**
   * Whether the previous release drains on SIGTERM (it has apps/api/src/lifecycle.ts): only
   * then are its deploy's requests held to "every one answered" (7432061 predates the drain).
   */
  previousDrains: boolean;
  notes: string[];
}

function previousCommit(): string | null {
  const commit = readFileSync(join(ROOT, 'deploy/previous-release'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('#'));
  if (!commit) return null;
  try {
    execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: ROOT, stdio: 'ignore' });
    return commit;
  } catch {
    return null;
  }
}

export async function releases(dir: string): Promise<Releases> {
  const notes: string[] = [];
  await bundleApi({ onlyIfStale: true });
  const previousDir = join(dir, 'previous');
  const dirs = { current: ROOT, previous: previousDir };
  const current = unitCommand('qless@.service', '3000', dirs);
  const migrate = unitCommand('qless-migrate.service', '', dirs);
  if (!current || !migrate)
    throw new Error('deploy/systemd/qless@.service or qless-migrate.service is missing');
  const commit = previousCommit();
  let previous: ApiCommand;
  let previousDrains = true;
  if (commit) {
    checkOutRelease(ROOT, commit, previousDir);
    previousDrains = existsSync(join(previousDir, 'apps/api/src/lifecycle.ts'));
    const { server } = await bundleApi({
      apiDir: join(previousDir, 'apps/api'),
      outDir: join(previousDir, 'apps/api/dist'),
      entries: ['src/server.ts'],
    });
    previous = {
      ...current,
      argv: [process.execPath, server],
      cwd: previousDir,
      source: `previous release ${commit}`,
    };
    notes.push(
      `rolling deploy from the previous release ${commit} (deploy/previous-release) to this checkout`,
    );
  } else {
    previous = current;
    notes.push(
      'deploy/previous-release names a commit this clone lacks: the first deploy restarts this build',
    );
  }
  notes.push(`API processes: ${current.source}: ${current.argv.join(' ')}`);
  return { previous, current, migrate, previousDrains, notes };
}

/** Creates the database, runs this release's migrations from api1's host, adds the fixture. */
export async function prepareDatabase(
  adminUrl: string,
  migrate: ApiCommand,
  linkUrl: string,
  settings: Record<string, string>,
): Promise<TopologyFixture> {
  const admin = new pg.Client({ connectionString: adminUrl.replace(/\/qless$/, '/postgres') });
  await admin.connect();
  await admin.query('create database qless');
  await admin.end();
  // As the deploy runs it: once, from an API host, with the unit's command and environment.
  sh('ip', [
    'netns',
    'exec',
    'qx-api1',
    'env',
    '-i',
    `DATABASE_URL=${linkUrl}`,
    `PATH=${process.env.PATH ?? ''}`,
    ...Object.entries({ ...migrate.env, ...settings }).map(([k, v]) => `${k}=${v}`),
    ...migrate.argv,
  ]);
  const database = await openDatabase({ databaseUrl: adminUrl, dataDir: null });
  try {
    const now = new Date();
    const fx = await createFixture(database, now, ' topology');
    await database.db
      .updateTable('services')
      .set({ capacity: SEATS })
      .where('id', '=', fx.serviceId)
      .execute();
    const dates = Array.from({ length: DAYS }, (_, i) =>
      new Date(now.getTime() + (i + 2) * 86_400_000).toISOString().slice(0, 10),
    );
    return { orgId: fx.orgId, serviceId: fx.serviceId, slotIds: fx.slotIds, dates };
  } finally {
    await database.close();
  }
}
