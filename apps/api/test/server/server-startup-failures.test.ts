import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServer } from '../support/server-process.js';
import { silentServer } from '../support/tcp-fakes.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';

/** Waits for the process to exit (its code) or gives up after `ms` ("still running"). */
async function exitWithin(proc: ReturnType<typeof startServer>, ms: number) {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    proc.exited,
    new Promise<'still running'>((resolve) => {
      timer = setTimeout(() => resolve('still running'), ms);
    }),
  ]).finally(() => clearTimeout(timer));
  if (code === 'still running') proc.child.kill('SIGKILL');
  const lines = proc
    .output()
    .split('\n')
    .filter((l) => l.trim() !== '');
  return { code, lines, seconds: (performance.now() - started) / 1000 };
}

describe('the server process when the database is not usable', () => {
  // A server process on the PostgreSQL URL of a database made to fail: not a stack's app.
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('postgres');
  }, 60_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  it('a database that accepts connections but never answers: exits 1 within the connect timeout, one line naming it', async () => {
    const silent = await silentServer();
    try {
      const proc = startServer({
        DATABASE_URL: `postgres://postgres:pw@127.0.0.1:${silent.port}/qless`,
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
        PORT: String(await freePort()),
      });
      const result = await exitWithin(proc, 25_000);
      expect({ code: result.code, lines: result.lines.length }, result.lines.join('\n')).toEqual({
        code: 1,
        lines: 1,
      });
      expect(result.lines[0]).toMatch(
        new RegExp(
          `^Qless cannot start: Cannot reach the database at 127\\.0\\.0\\.1:${silent.port}: .*timeout`,
        ),
      );
      expect(result.lines[0]).not.toContain('pw');
    } finally {
      await silent.close();
    }
  }, 40_000);

  it('a refused connection: exits 1 with one line giving the cause', async () => {
    const closed = await freePort();
    const proc = startServer({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/qless`,
      PORT: String(await freePort()),
    });
    const result = await exitWithin(proc, 25_000);
    expect({ code: result.code, lines: result.lines }).toEqual({
      code: 1,
      lines: [
        `Qless cannot start: Cannot reach the database at 127.0.0.1:${closed}: connect ECONNREFUSED 127.0.0.1:${closed}`,
      ],
    });
  }, 40_000);

  it('a failing migration: exits 1 with one line naming the migration and its cause', async () => {
    // The schema is there but the migrations' bookkeeping is gone: 001 runs again and fails.
    await t.database.db.schema.dropTable('kysely_migration').execute();
    await t.database.db.schema.dropTable('kysely_migration_lock').execute();
    const proc = startServer({ DATABASE_URL: t.url ?? '', PORT: String(await freePort()) });
    const result = await exitWithin(proc, 25_000);
    expect({ code: result.code, lines: result.lines }).toEqual({
      code: 1,
      lines: [
        expect.stringMatching(
          /^Qless cannot start: Migration 001-initial failed: .*already exists/,
        ),
      ],
    });
  }, 40_000);
});
