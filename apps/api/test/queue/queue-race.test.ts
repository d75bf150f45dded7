// engines: postgres and pglite — twenty counters calling at once (the queue lock)
import type { Counter, CounterActionResponse } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { useStack } from '../support/app-fixture.js';
import { signedIn } from '../support/auth-helpers.js';
import { NO_LIMITS } from '../support/payment-helpers.js';
import { queueApi } from '../support/queue-helpers.js';
import { createTestApp } from '../support/test-app.js';

/**
 * Issue 19 item 3: twenty counters pressing "Call next" at the same moment on two processes
 * call twenty different people, never one twice, and only people of their services. On
 * PostgreSQL the two processes are two apps with their own connections to one database; on
 * PGlite (one process only) the twenty presses race inside one app.
 */
describe('call next under concurrency', () => {
  const s = useStack({ env: NO_LIMITS });
  let other: Database | null = null;
  let second: FastifyInstance;
  let admin: { headers: { authorization: string } };
  let staff: { headers: { authorization: string } };

  beforeAll(async () => {
    if (s.engine === 'postgres') {
      other = await openDatabase({ databaseUrl: s.url, dataDir: null });
      ({ app: second } = await createTestApp(other, { clock: s.clock, env: NO_LIMITS }));
    } else {
      second = s.app;
    }
    admin = await signedIn(s.app, s.database.db, {
      email: 'admin@race.cm',
      role: 'org_admin',
      organizationId: s.fx.orgId,
    });
    staff = await signedIn(s.app, s.database.db, {
      email: 'staff@race.cm',
      role: 'staff',
      organizationId: s.fx.orgId,
    });
  });
  afterAll(async () => {
    if (second && second !== s.app) await second.close();
    await other?.close();
  });

  it('twenty counters, two processes: twenty different people, each of the counter’s services, in line order', async () => {
    const q = queueApi(() => s.app);
    const apps = [s.app, second];
    const { serviceId: a, otherServiceId: b } = s.fx;
    // Ten counters serve A only, ten serve B only.
    const counters: Counter[] = [];
    for (let i = 0; i < 20; i += 1) {
      counters.push(await q.openCounter(admin.headers, `Guichet ${i + 1}`, [i < 10 ? a : b]));
    }
    const serves = new Map(counters.map((c) => [c.counter_id, c.service_ids[0]]));
    // Fourteen walk-ins of each service, a minute apart, alternating.
    const arrivals: { id: string; service: string }[] = [];
    for (let i = 0; i < 28; i += 1) {
      s.clock.advance(60_000);
      const service = i % 2 === 0 ? a : b;
      const v = await q.walkIn(staff.headers, service, `Visiteur ${i + 1}`);
      arrivals.push({ id: v.visit_id, service });
    }

    const press = (action: string) =>
      Promise.all(
        counters.map((c, i) =>
          (apps[i % 2] as FastifyInstance).inject({
            method: 'POST',
            url: `/api/v1/queue/counters/${c.counter_id}/${action}`,
            headers: staff.headers,
          }),
        ),
      );

    const round1 = await press('call-next');
    for (const r of round1) expect(r.statusCode, r.body).toBe(200);
    const calls = round1.map((r) => r.json<CounterActionResponse>());
    const called = calls.map((c) => c.visit?.visit_id);
    expect(called.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(called).size).toBe(20);
    for (const c of calls) {
      expect(c.visit?.service_id).toBe(serves.get(c.counter.counter_id));
      expect(c.counter.current_visit_id).toBe(c.visit?.visit_id);
    }
    // The first ten of each line were called (first come, first served), nobody else.
    const firstTen = (service: string) =>
      arrivals
        .filter((v) => v.service === service)
        .slice(0, 10)
        .map((v) => v.id)
        .sort();
    expect(called.filter((_, i) => i < 10).sort()).toEqual(firstTen(a));
    expect(called.filter((_, i) => i >= 10).sort()).toEqual(firstTen(b));

    // Pressed again at once: every counter is busy, nobody else is called.
    const busy = await press('call-next');
    for (const r of busy) {
      expect(r.statusCode).toBe(409);
      expect(r.json().code).toBe('COUNTER_BUSY');
    }
    // Started, then pressed together: the eight left are called once each, the others wait.
    for (const r of await press('start')) expect(r.statusCode, r.body).toBe(200);
    const round2 = await press('call-next');
    for (const r of round2) expect(r.statusCode, r.body).toBe(200);
    const second8 = round2
      .map((r) => r.json<CounterActionResponse>())
      .filter((c) => c.visit !== null);
    expect(second8).toHaveLength(8);
    expect(new Set(second8.map((c) => c.visit?.visit_id)).size).toBe(8);
    for (const c of second8) expect(c.visit?.service_id).toBe(serves.get(c.counter.counter_id));

    // In the database: each visit called once, never twice; all 28 called; 20 done.
    const events = await s.database.db
      .selectFrom('visit_events')
      .select(['visit_id'])
      .where('kind', '=', 'called')
      .execute();
    const perVisit = new Map<string, number>();
    for (const e of events) perVisit.set(e.visit_id, (perVisit.get(e.visit_id) ?? 0) + 1);
    expect(perVisit.size).toBe(28);
    expect([...perVisit.values()].every((n) => n === 1)).toBe(true);
    const done = await s.database.db
      .selectFrom('visits')
      .select('id')
      .where('state', '=', 'done')
      .execute();
    expect(done).toHaveLength(20);
  });
});
