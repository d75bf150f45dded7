import type { ErrorBody } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FixedClock } from '../../src/core/clock.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { signedIn } from '../support/auth-helpers.js';
import { createFixture } from '../support/fixtures.js';
import { NO_LIMITS } from '../support/payment-helpers.js';
import { createTestApp, PINNED_NOW } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';

/**
 * A Call next whose connection is killed while its COMMIT is on the server (issue 31 item 2):
 * the call may or may not have happened, so the answer says so (503 OUTCOME_UNKNOWN), never
 * "unavailable, try again" — a clerk who repeats it could call a second person.
 * PostgreSQL only: PGlite is in the process, it has no connection to lose.
 */
describe('a write cut off during its COMMIT', () => {
  let tdb: TestDatabase;
  let app: FastifyInstance;
  let database: Database;
  const clock = new FixedClock(PINNED_NOW);

  beforeAll(async () => {
    tdb = await createTestDatabase('postgres');
    // A stall watch longer than the test's wait: the COMMIT is cut by the kill, not given up.
    database = await openDatabase({
      databaseUrl: tdb.url,
      dataDir: null,
      timeouts: { stallMs: 10_000 },
    });
    ({ app } = await createTestApp(database, { env: NO_LIMITS, clock }));
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await tdb?.cleanup();
  });

  it('answers 503 OUTCOME_UNKNOWN with Retry-After; reading again, the next Call next calls the same visitor', async () => {
    const db = tdb.database.db;
    const fx = await createFixture(tdb.database, new Date(PINNED_NOW));
    const admin = await signedIn(app, db, {
      email: 'admin@commit.cm',
      role: 'org_admin',
      organizationId: fx.orgId,
    });
    const staff = await signedIn(app, db, {
      email: 'staff@commit.cm',
      role: 'staff',
      organizationId: fx.orgId,
    });
    const made = await app.inject({
      method: 'POST',
      url: '/api/v1/queue/counters',
      headers: admin.headers,
      payload: { name: 'Guichet 1', service_ids: [fx.serviceId] },
    });
    const counterId = made.json().counter.counter_id as string;
    const walkIn = await app.inject({
      method: 'POST',
      url: '/api/v1/queue/visits',
      headers: staff.headers,
      payload: { service_id: fx.serviceId, name: 'Eto Jean' },
    });
    expect(walkIn.statusCode, walkIn.body).toBe(201);
    const opened = await app.inject({
      method: 'POST',
      url: `/api/v1/queue/counters/${counterId}/open`,
      headers: staff.headers,
    });
    expect(opened.statusCode, opened.body).toBe(200);

    // A deferred trigger makes the COMMIT of any change to visits wait on a lock this test
    // holds: the request's COMMIT is then provably on the server when its backend is killed.
    await sql`create function hold_commit() returns trigger language plpgsql as $$
      begin perform pg_advisory_xact_lock(3131); return null; end $$`.execute(db);
    await sql`create constraint trigger hold_commit after insert or update on visits
      deferrable initially deferred for each row execute function hold_commit()`.execute(db);
    const holder = new pg.Client({ connectionString: tdb.url ?? '' });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock(3131)');
      const pending = app.inject({
        method: 'POST',
        url: `/api/v1/queue/counters/${counterId}/call-next`,
        headers: staff.headers,
      });
      let settled = '';
      void pending.then((r) => {
        settled = r.body;
      });
      await vi.waitFor(
        async () => {
          // In its transaction the holder sees one snapshot of the activity: ask a fresh one.
          await holder.query('select pg_stat_clear_snapshot()');
          const { rows } = await holder.query(
            `select 1 from pg_stat_activity where datname = current_database()
                and wait_event_type = 'Lock' and lower(query) = 'commit'`,
          );
          if (rows.length === 0) throw new Error(`the COMMIT does not wait yet ${settled}`);
        },
        { timeout: 5000, interval: 25 },
      );
      await holder.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and lower(query) = 'commit'`,
      );
      const res = await pending;
      expect({
        status: res.statusCode,
        code: (res.json() as ErrorBody).code,
        retryAfter: res.headers['retry-after'],
      }).toEqual({ status: 503, code: 'OUTCOME_UNKNOWN', retryAfter: '5' });
      await holder.query('rollback');
    } finally {
      await holder.end();
      await sql`drop trigger hold_commit on visits`.execute(db);
      await sql`drop function hold_commit()`.execute(db);
    }
    // Reading again tells what happened; here the killed COMMIT did not land, so the same
    // visitor is still the one to call: the next Call next calls them, and only them.
    await expect
      .poll(async () => {
        const res = await app.inject({
          method: 'POST',
          url: `/api/v1/queue/counters/${counterId}/call-next`,
          headers: staff.headers,
        });
        return { status: res.statusCode, id: res.json().visit?.visit_id };
      })
      .toEqual({ status: 200, id: walkIn.json().visit.visit_id });
  }, 30_000);
});
