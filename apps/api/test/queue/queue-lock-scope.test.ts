import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { signedIn } from '../support/auth-helpers.js';
import { NO_LIMITS } from '../support/payment-helpers.js';
import { queueApi } from '../support/queue-helpers.js';

/**
 * What the organization's queue lock holds (decision 126): the waiting line only. A counter's
 * acts on the visit it holds (start, recall, done, no-show) never wait for it, so twenty
 * counters calling at once do not queue every clerk's other taps behind their claims; Call
 * next waits only for its claim. PostgreSQL: the lock is held by another connection here.
 */
describe('the queue lock holds the line, not the counters', () => {
  const s = useStack({ env: NO_LIMITS });
  let admin: { headers: { authorization: string } };
  let staff: { headers: { authorization: string } };
  beforeAll(async () => {
    admin = await signedIn(s.app, s.database.db, {
      email: 'admin@lock.cm',
      role: 'org_admin',
      organizationId: s.fx.orgId,
    });
    staff = await signedIn(s.app, s.database.db, {
      email: 'staff@lock.cm',
      role: 'staff',
      organizationId: s.fx.orgId,
    });
  });

  it('start, recall and done answer while another transaction holds the queue lock; call next waits for it', async () => {
    const q = queueApi(() => s.app);
    const counter = await q.openCounter(admin.headers, 'Guichet 1', [s.fx.serviceId]);
    for (const name of ['Ada Mbe', 'Paul Ndi']) {
      s.clock.advance(60_000);
      await q.walkIn(staff.headers, s.fx.serviceId, name);
    }
    const called = await q.act(staff.headers, counter.counter_id, 'call-next');
    expect(called.statusCode, called.body).toBe(200);

    const holder = new pg.Client({ connectionString: s.url ?? undefined });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `queue:${s.fx.orgId}`,
      ]);
      for (const act of ['recall', 'start', 'done'] as const) {
        const res = await q.act(staff.headers, counter.counter_id, act);
        expect(res.statusCode, `${act}: ${res.body}`).toBe(200);
      }
      // Call next needs the line: it waits until the holder lets go.
      let answered = false;
      const next = q.act(staff.headers, counter.counter_id, 'call-next').then((res) => {
        answered = true;
        return res;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(answered).toBe(false);
      await holder.query('commit');
      const res = await next;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().visit.number).toBeTruthy();
    } finally {
      await holder.end();
    }
  });
});
