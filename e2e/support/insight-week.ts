import type { FastifyInstance } from 'fastify';
import { FixedClock } from '../../apps/api/src/core/clock';
import { bearer, createUser, signIn } from '../../apps/api/test/support/auth-helpers';
import { createFixture } from '../../apps/api/test/support/fixtures';
import { NO_LIMITS } from '../../apps/api/test/support/payment-helpers';
import { queueApi } from '../../apps/api/test/support/queue-helpers';
import { createTestApp } from '../../apps/api/test/support/test-app';
import type { TestDatabase } from '../../apps/api/test/support/test-db';

const MINUTE = 60_000;

/** Monday 16 – Friday 20 November 2026; 08:00 in Douala is 07:00 UTC. */
export const WEEK = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];
const opening = (date: string) => new Date(`${date}T07:00:00Z`).getTime();

/** What the test itself recorded of one branch's week. */
export interface BranchWeek {
  organizationId: string;
  label: string;
  visits: number;
  served: number;
  noShows: number;
  /** Minutes, arrival → called, of every visit called. */
  waits: number[];
  /** Minutes, called → done, of every visit served. */
  services: number[];
  /** Visits per day of WEEK. */
  daily: number[];
  /** Customer SMS the branch's outbox sent in the week (walk-ins who gave a phone). */
  smsSent: number;
}

export interface InsightWeek {
  head: BranchWeek;
  akwa: BranchWeek;
  organizationName: string;
  adminEmail: string;
  managerEmail: string;
}

export const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = (s.length - 1) / 2;
  return ((s[Math.floor(m)] as number) + (s[Math.ceil(m)] as number)) / 2;
};

/**
 * A regional bank with two branches and a working week of its queue, made through the real
 * API (an in-process app on the test's database with a clock the test moves day by day):
 * the head office and Akwa each open a counter every morning; walk-ins arrive five minutes
 * apart; each is called, and either served or, one in four, never comes. The test keeps its
 * own account of every figure.
 */
/** Sweeps the outbox until nothing more is due (a sweep takes a batch). */
async function sendAll(app: FastifyInstance): Promise<void> {
  const worker = app.messaging.worker;
  if (!worker) throw new Error('no outbox worker');
  for (;;) {
    const r = await worker.sweep();
    if (r.sent + r.failed + r.gaveUp + r.skipped === 0) return;
  }
}

export async function simulateInsightWeek(tdb: TestDatabase): Promise<InsightWeek> {
  const clock = new FixedClock(new Date(opening(WEEK[0] as string) - 60 * MINUTE));
  // Sessions that last the simulated week: one sign-in per account (argon2 costs CPU).
  const { app } = await createTestApp(tdb.database, {
    clock,
    env: {
      ...NO_LIMITS,
      SESSION_IDLE_MINUTES: '43200',
      SESSION_ABSOLUTE_HOURS: '720',
      // Swept by the simulation at the end of each day, on the week's clock.
      OUTBOX_WORKER_INTERVAL_MS: '3600000',
    },
  });
  try {
    return await simulate(app, tdb, clock);
  } finally {
    await app.close();
  }
}

async function simulate(
  app: FastifyInstance,
  tdb: TestDatabase,
  clock: FixedClock,
): Promise<InsightWeek> {
  const db = tdb.database.db;
  const organizationName = 'Banque Régionale du Wouri';
  const fx = await createFixture(tdb.database, clock.now(), '-insight');
  await db
    .updateTable('organizations')
    .set({ name: organizationName, branch_name: 'Bonanjo', category: 'bank' })
    .where('id', '=', fx.orgId)
    .execute();
  const adminEmail = 'regional@wouri.cm';
  const managerEmail = 'akwa@wouri.cm';
  await createUser(db, { email: adminEmail, role: 'org_admin', organizationId: fx.orgId });
  const admin = bearer(await signIn(app, adminEmail));
  const api = (
    method: 'POST' | 'GET',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const made = await api('POST', '/organization/branches', admin, {
    branch_name: 'Akwa',
    city: 'Douala',
    location: 'Boulevard de la Liberté, Akwa',
  });
  if (made.statusCode !== 201) throw new Error(`branch: ${made.statusCode} ${made.body}`);
  const akwaId = made.json().branch.organization_id as string;
  const copied = await api('POST', `/organization/services/${fx.serviceId}/copy`, admin, {
    organization_ids: [akwaId],
  });
  if (copied.statusCode !== 200) throw new Error(`copy: ${copied.statusCode} ${copied.body}`);
  const akwaServiceId = copied.json().copied[0].service_id as string;
  // A visitor who never comes is marked absent at once: no recall first (decision 118).
  await db
    .updateTable('organizations')
    .set({ queue_max_recalls: 0 })
    .where('id', 'in', [fx.orgId, akwaId])
    .execute();
  await createUser(db, { email: managerEmail, role: 'branch_manager', organizationId: akwaId });
  const q = queueApi(() => app);

  const branches = [
    { id: fx.orgId, serviceId: fx.serviceId, label: 'Bonanjo', staff: 'staff@bonanjo.wouri.cm' },
    { id: akwaId, serviceId: akwaServiceId, label: 'Akwa', staff: 'staff@akwa.wouri.cm' },
  ];
  const weeks: BranchWeek[] = [];
  for (const [b, branch] of branches.entries()) {
    await createUser(db, { email: branch.staff, role: 'staff', organizationId: branch.id });
    const staff = bearer(await signIn(app, branch.staff));
    // Monday before opening: the admin sets up each branch's counter by naming the branch,
    // as the area's switch does.
    clock.set(new Date(opening(WEEK[0] as string) - 30 * MINUTE));
    const counter = await q.createCounter(
      { ...admin, 'x-qless-branch': branch.id },
      `Guichet ${branch.label}`,
      [branch.serviceId],
    );
    const week: BranchWeek = {
      organizationId: branch.id,
      label: branch.label,
      visits: 0,
      served: 0,
      noShows: 0,
      waits: [],
      services: [],
      daily: [],
      smsSent: 0,
    };
    for (const [d, date] of WEEK.entries()) {
      clock.set(new Date(opening(date)));
      const open = await q.act(staff, counter.counter_id, 'open');
      if (open.statusCode !== 200) throw new Error(`open: ${open.statusCode} ${open.body}`);
      const count = 3 + ((d + b) % 3);
      const arrivals = new Map<string, number>();
      for (let i = 0; i < count; i += 1) {
        clock.set(new Date(opening(date) + (10 + 5 * i) * MINUTE));
        // One in two gives a phone: "you are next", "go to the counter", then a feedback SMS.
        const phone = i % 2 === 0 ? `+2376${70_000_000 + b * 10_000 + d * 100 + i}` : undefined;
        const visit = await q.walkIn(
          staff,
          branch.serviceId,
          `Client ${branch.label} ${d}-${i}`,
          phone,
        );
        arrivals.set(visit.visit_id, clock.now().getTime());
      }
      for (let i = 0; i < count; i += 1) {
        clock.advance((2 + ((i + d) % 4)) * MINUTE);
        const called = await q.act(staff, counter.counter_id, 'call-next');
        if (called.statusCode !== 200) throw new Error(`call: ${called.statusCode} ${called.body}`);
        const visitId = called.json().visit.visit_id as string;
        const calledAt = clock.now().getTime();
        week.waits.push((calledAt - (arrivals.get(visitId) as number)) / MINUTE);
        if (i % 4 === 3) {
          clock.advance(3 * MINUTE);
          const gone = await q.act(staff, counter.counter_id, 'no-show');
          if (gone.statusCode !== 200) throw new Error(`no-show: ${gone.statusCode} ${gone.body}`);
          week.noShows += 1;
          continue;
        }
        await q.act(staff, counter.counter_id, 'start');
        clock.advance((4 + ((i * 3 + d) % 7)) * MINUTE);
        const done = await q.act(staff, counter.counter_id, 'done');
        if (done.statusCode !== 200) throw new Error(`done: ${done.statusCode} ${done.body}`);
        week.services.push((clock.now().getTime() - calledAt) / MINUTE);
        week.served += 1;
      }
      week.visits += count;
      week.daily.push(count);
      // The day's messages leave (the feedback SMS waits out the counter's Undo window).
      clock.advance(5 * MINUTE);
      await sendAll(app);
      const closed = await q.act(staff, counter.counter_id, 'close');
      if (closed.statusCode !== 200) throw new Error(`close: ${closed.statusCode} ${closed.body}`);
    }
    const sent = await db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('organization_id', '=', branch.id)
      .where('channel', '=', 'sms')
      .where('status', '=', 'sent')
      .executeTakeFirstOrThrow();
    week.smsSent = Number(sent.n);
    weeks.push(week);
  }
  return {
    head: weeks[0] as BranchWeek,
    akwa: weeks[1] as BranchWeek,
    organizationName,
    adminEmail,
    managerEmail,
  };
}
