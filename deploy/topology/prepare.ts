/**
 * Before the load: the topology's database (migrated, one organization whose service has
 * enough seats for the run, two per slot so that customers race for them) and the two
 * releases the rolling deploy goes between.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { bundleApi } from '../../apps/api/build/bundle.js';
import { openDatabase } from '../../apps/api/src/db/database.js';
import { migrateToLatest } from '../../apps/api/src/db/migrate.js';
import { createFixture } from '../../apps/api/test/support/fixtures.js';
import { type ApiCommand, ROOT, unitCommand } from './hosts.js';

export interface TopologyFixture {
  orgId: string;
  serviceId: string;
  slotIds: string[];
  dates: string[];
}

/** Days ahead customers book (from the day after tomorrow), and seats per slot. */
const DAYS = 28;
const SEATS = 2;

export async function prepareDatabase(url: string): Promise<TopologyFixture> {
  const admin = new pg.Client({ connectionString: url.replace(/\/qless$/, '/postgres') });
  await admin.connect();
  await admin.query('create database qless');
  await admin.end();
  const database = await openDatabase({ databaseUrl: url, dataDir: null });
  try {
    await migrateToLatest(database.db);
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

/**
 * The current release: apps/api/dist/server.mjs (the production bundle), run as the systemd
 * unit says. The previous one: deploy/previous-release's bundle when it exists, else the
 * current one again (the deploy then restarts the same build, and the report says so).
 */
export async function releases(): Promise<{
  previous: ApiCommand;
  current: ApiCommand;
  notes: string[];
}> {
  const notes: string[] = [];
  const { server } = await bundleApi({ onlyIfStale: true });
  const fromUnit = unitCommand('3000');
  const current: ApiCommand = fromUnit
    ? { ...fromUnit, source: `${fromUnit.source}: ${fromUnit.argv.join(' ')}` }
    : { argv: [process.execPath, server], env: {}, source: `node ${server} (no systemd unit yet)` };
  if (!fromUnit)
    notes.push('deploy/systemd/qless@.service not found: plain `node dist/server.mjs`');
  const previousDir = join(ROOT, 'deploy/previous-release');
  let previous = current;
  if (!existsSync(previousDir)) {
    notes.push(
      'no previous release (deploy/previous-release): the deploy restarts the current build',
    );
  } else {
    previous = current;
    notes.push(
      'deploy/previous-release exists but is not wired in yet: the deploy restarts the current build',
    );
  }
  return { previous, current, notes };
}
