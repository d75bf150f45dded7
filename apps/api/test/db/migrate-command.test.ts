// engines: postgres and pglite — the two migration ledgers
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleApi } from '../../build/bundle.js';
import {
  ensureMigrated,
  MigrationError,
  migrateToLatest,
  migrationNames,
  pendingMigrations,
} from '../../src/db/migrate.js';
import type { DB } from '../../src/db/schema.js';
import { adminQuery, adminUrl } from '../support/run-databases.js';
import { freePort } from '../support/server-process.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const NEWER = '999-from-a-newer-release';

async function names(db: Kysely<DB>, table: string): Promise<string[]> {
  const { rows } = await sql<{
    name: string;
  }>`select name from ${sql.table(table)} order by name`.execute(db);
  return rows.map((r) => r.name);
}

describe('migrations against a database a newer release migrated (decision 027)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(inject('engine'));
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('the first ledger holds 001–019 only: the previous release (Kysely Migrator over its own list) still starts', async () => {
    const db = t.database.db;
    expect(await names(db, 'kysely_migration')).toEqual(
      migrationNames.filter((n) => n <= '019-branches'),
    );
    expect(await names(db, 'qless_migration')).toEqual(
      migrationNames.filter((n) => n > '019-branches'),
    );
    // The migrator of release 7432061, as it runs at its start: its 19 migrations, no options.
    const previous = Object.fromEntries(
      migrationNames
        .filter((n) => n <= '019-branches')
        .map((n): [string, Migration] => [n, { up: async () => {} }]),
    );
    const migrator = new Migrator({ db, provider: { getMigrations: async () => previous } });
    const { error, results } = await migrator.migrateToLatest();
    expect({ error, results }).toEqual({ error: undefined, results: [] });
  });

  it('a database ahead of the code: nothing to run, nothing missing, the server may start', async () => {
    const db = t.database.db;
    await sql`insert into qless_migration (name) values (${NEWER})`.execute(db);
    expect(await migrateToLatest(db)).toEqual([]);
    expect(await pendingMigrations(db)).toEqual([]);
    await expect(ensureMigrated(db)).resolves.toBeUndefined();
  });

  it('a database behind the code: the check at start names the migrations it lacks', async () => {
    const db = t.database.db;
    const last = migrationNames.at(-1) as string;
    expect(last > '019-branches', 'this test needs a migration of the second ledger').toBe(true);
    await sql`delete from qless_migration where name = ${last}`.execute(db);
    expect(await pendingMigrations(db)).toEqual([last]);
    const refused = await ensureMigrated(db).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MigrationError);
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^the database lacks 1 migration\\(s\\) of this release \\(${last}\\): run the migrate command first`,
      ),
    );
  });
});

describe.runIf(inject('engine') === 'postgres')(
  'the migrate command and MIGRATE_ON_START=false',
  () => {
    let cli: string;
    let server: string;
    let name: string;
    let url: string;
    beforeAll(async () => {
      ({ cli, server } = await bundleApi({ onlyIfStale: true }));
      name = `qless_migrate_${randomBytes(6).toString('hex')}`;
      await adminQuery(`create database ${name}`);
      const u = new URL(adminUrl);
      u.pathname = `/${name}`;
      url = u.toString();
    });
    afterAll(async () => {
      if (name) await adminQuery(`drop database if exists ${name} with (force)`);
    });

    function run(args: string[], env: Record<string, string>, script = cli) {
      const child = spawn(process.execPath, [script, ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d) => {
        output += String(d);
      });
      child.stderr.on('data', (d) => {
        output += String(d);
      });
      return new Promise<{ code: number | null; lines: string[] }>((resolve) =>
        child.on('exit', (code) =>
          resolve({ code, lines: output.split('\n').filter((l) => l.trim() !== '') }),
        ),
      );
    }

    it('a server that expects migrations the database lacks refuses to start, in one line', async () => {
      const env = { DATABASE_URL: url, MIGRATE_ON_START: 'false', PORT: String(await freePort()) };
      expect(await run([], env, server)).toEqual({
        code: 1,
        lines: [
          `Qless cannot start: the database lacks ${migrationNames.length} migration(s) of this release (${migrationNames.join(', ')}): run the migrate command first (node apps/api/dist/cli.mjs migrate, or npm run migrate)`,
        ],
      });
    }, 40_000);

    it('two deploys migrating at once: both exit 0 in one line, each migration ran once', async () => {
      const [a, b] = await Promise.all([
        run(['migrate'], { DATABASE_URL: url }),
        run(['migrate'], { DATABASE_URL: url }),
      ]);
      expect([a.code, b.code, a.lines.length, b.lines.length]).toEqual([0, 0, 1, 1]);
      const said = [...a.lines, ...b.lines].join('\n');
      // Each migration named once, by whichever of the two ran it.
      for (const n of migrationNames) expect(said.split(n).length - 1, n).toBe(1);
      const again = await run(['migrate'], { DATABASE_URL: url });
      expect(again.code).toBe(0);
      expect(again.lines).toEqual([
        expect.stringMatching(/^migrate: the database \(postgres\) is up to date; nothing to do/),
      ]);
    }, 40_000);

    it('a database it cannot reach: exit 1, one line; a wrong command: exit 2 with the usage', async () => {
      const closed = await freePort();
      const down = await run(['migrate'], {
        DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/x`,
      });
      expect(down).toEqual({
        code: 1,
        lines: [
          `migrate: Cannot reach the database at 127.0.0.1:${closed}: connect ECONNREFUSED 127.0.0.1:${closed}`,
        ],
      });
      const wrong = await run(['migrat'], {});
      expect(wrong.code).toBe(2);
      expect(wrong.lines).toEqual([expect.stringMatching(/^usage: qless migrate/)]);
    }, 40_000);
  },
);
