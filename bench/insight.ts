/**
 * Insight's figures (issue 20) over a year of a busy branch: how long the answer of
 * GET /organization/insight and the CSV export take for a day, a week, a month and a year.
 *
 * A fresh database (a scratch PostgreSQL database on 127.0.0.1:5432, dropped at the end, and
 * an in-memory PGlite) is migrated, then seeded straight in SQL: two branches (the measured
 * one and a neighbour of the same size, so the queries must find their branch's rows), each
 * with 300 visits a day for 365 days (sources, states and times drawn like a real day: a
 * morning peak, waits of minutes to an hour, 3–25 min at the counter, no-shows, visitors
 * left at closing, transfers), 100 bookings a day (checked in, no-shows, cancellations), six
 * counters, and a word after one visit in ten when visit_feedback exists. Then VACUUM ANALYZE
 * (autovacuum's job in production). Each figure is the repository's own function called in
 * this process, as the route calls it, `runs` times after warm-up; the baseline is measured
 * the same way in the same run: `select 1` (a round trip) and a plain count of the branch's
 * year of visits. Prints p50/p95 and their ratios to the baselines, and on PostgreSQL the
 * EXPLAIN (ANALYZE, BUFFERS) of every statement of the year's answer.
 *
 *   npx tsx bench/insight.ts [--quick] [--engines=postgres,pglite] [--keep]
 *   npm run bench -- insight      (the figures in the bench table, without the plans)
 */
import { addDays } from '@qless/contract';
import {
  type Kysely,
  type KyselyPlugin,
  PostgresQueryCompiler,
  type QueryResult,
  sql,
  type UnknownRow,
} from 'kysely';
import { openDatabase } from '../apps/api/src/db/database.js';
import { migrateToLatest } from '../apps/api/src/db/migrate.js';
import { withoutStallWatch } from '../apps/api/src/db/pg-pool.js';
import type { DB } from '../apps/api/src/db/schema.js';
import {
  findBranches,
  insight,
  insightOptions,
} from '../apps/api/src/modules/insight/insight.repository.js';
import { exportCsv } from '../apps/api/src/modules/insight/insight-export.js';
import { createFixture } from '../apps/api/test/support/fixtures.js';
import type { Figure } from './lib/figures.js';
import { freshPostgres } from './lib/live-processes.js';

type Engine = 'postgres' | 'pglite';
/** The issue's target for a year of a busy branch. */
const YEAR_TARGET_MS = 300;

const TODAY = '2026-11-26';
const DAYS = 365;
const VISITS_PER_DAY = 300;
const BOOKINGS_PER_DAY = 100;
const RANGES = {
  day: [TODAY, TODAY],
  week: [addDays(TODAY, -6), TODAY],
  month: [addDays(TODAY, -29), TODAY],
  year: [addDays(TODAY, -(DAYS - 1)), TODAY],
} as const;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function time(
  runs: number,
  fn: () => Promise<unknown>,
): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 3; i += 1) await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95) };
}

/** Two branches, their counters, a year of visits and bookings, feedback; straight SQL. */
async function seed(db: Kysely<DB>, database: Parameters<typeof createFixture>[0]) {
  const now = new Date(`${TODAY}T12:00:00Z`);
  const branches = [];
  for (const suffix of ['-bench', '-neighbour']) {
    const fx = await createFixture(database, now, suffix);
    await db
      .updateTable('services')
      .set({ queue_letter: 'A' })
      .where('id', '=', fx.serviceId)
      .execute();
    await db
      .updateTable('services')
      .set({ queue_letter: 'B' })
      .where('id', '=', fx.otherServiceId)
      .execute();
    await sql`insert into counters (organization_id, name, state)
      select ${fx.orgId}::uuid, 'Guichet ' || g, 'closed' from generate_series(1, 6) g`.execute(db);
    const from = addDays(TODAY, -(DAYS - 1));
    // Per visit: r1..r5 in [0,1) drive service, source, state, arrival and durations.
    // Arrivals 07:00–17:00 Douala (06:00–16:00 UTC), most before noon.
    await sql`
      insert into visits (organization_id, service_id, visit_date, letter, number, source,
        customer_name, arrived_at, queued_at, state, counter_id, called_at, serving_at, ended_at,
        created_at)
      select ${fx.orgId}::uuid,
        case when x.r1 < 0.7 then ${fx.serviceId}::uuid else ${fx.otherServiceId}::uuid end,
        x.day, case when x.r1 < 0.7 then 'A' else 'B' end, x.n,
        case when x.r2 < 0.3 then 'booking' when x.r2 < 0.9 then 'staff' else 'self' end,
        'Visitor ' || x.n,
        x.arrived, x.arrived, x.state,
        case when x.called is not null then
          (select c.id from counters c where c.organization_id = ${fx.orgId}::uuid
           order by c.name offset (x.n % 6) limit 1) end,
        x.called,
        case when x.state = 'done' then x.called + interval '1 minute' end,
        case when x.state in ('done', 'no_show', 'transferred') then x.called + x.service
             when x.state = 'left' then x.day + time '17:00' end,
        x.arrived
      from (
        select y.*,
          case when y.r3 < 0.86 then 'done' when y.r3 < 0.93 then 'no_show'
               when y.r3 < 0.97 then 'left' else 'transferred' end as state,
          case when y.r3 < 0.93 or y.r3 >= 0.97
               then y.arrived + (power(y.r5, 2) * interval '70 minutes') end as called,
          interval '3 minutes' + y.r4 * interval '22 minutes' as service
        from (
          select d::date as day, n,
            random() as r1, random() as r2, random() as r3, random() as r4, random() as r5,
            (d::date + time '06:00')::timestamp at time zone 'UTC'
              + power(random(), 1.6) * interval '10 hours' as arrived
          from generate_series(${from}::date, ${TODAY}::date, interval '1 day') d,
            generate_series(1, ${VISITS_PER_DAY}) n
        ) y
      ) x`.execute(db);
    // Bookings of the first service's slots, one seat each: 80 % checked in, 10 % no-show,
    // 10 % cancelled.
    await sql`
      insert into bookings (organization_id, service_id, slot_id, booking_date, seat, status,
        cus_name, cus_email, phone_number, ticket_code, confirmed_at, checked_in_at,
        status_changed_at, cancelled_by)
      select ${fx.orgId}::uuid, ${fx.serviceId}::uuid,
        (array[${sql.join(fx.slotIds.map((id) => sql`${id}::uuid`))}])[1 + n % ${fx.slotIds.length}],
        d::date, n,
        case when r < 0.8 then 'checked_in' when r < 0.9 then 'no_show' else 'cancelled' end,
        'Booker ' || n, 'b' || n || '@example.cm', '+2376770' || lpad(n::text, 5, '0'),
        'QB-' || md5(${fx.orgId} || d::text || n), d::date - interval '1 day', case when r < 0.8 then d::date + time '08:00' end,
        d::date + time '09:00', case when r >= 0.9 then 'customer' end
      from generate_series(${from}::date, ${TODAY}::date, interval '1 day') d,
        generate_series(1, ${BOOKINGS_PER_DAY}) n, lateral (select random() + n * 0 as r) rr`.execute(
      db,
    );
    branches.push(fx);
  }
  const { rows } = await sql<{ present: boolean }>`
    select to_regclass('visit_feedback') is not null as present`.execute(db);
  if (rows[0]?.present) {
    await sql`insert into visit_feedback
        (visit_id, organization_id, service_id, visit_date, rating, comment, locale, created_at)
      select v.id, v.organization_id, v.service_id, v.visit_date, 1 + floor(random() * 5)::int,
        case when random() < 0.3 then 'Merci, service rapide' end, 'fr', v.ended_at
      from visits v where v.state = 'done' and random() < 0.1`.execute(db);
  }
  await sql`vacuum analyze`.execute(db);
  return { branches, feedback: rows[0]?.present ?? false };
}

const compiler = new PostgresQueryCompiler();

async function runEngine(engine: Engine, quick: boolean, explainPlans: boolean): Promise<Figure[]> {
  const scratch = engine === 'postgres' ? await freshPostgres('qless_insight_bench') : null;
  const database = await openDatabase({ databaseUrl: scratch?.url ?? null, dataDir: null });
  try {
    const db = database.db;
    await migrateToLatest(db);
    const t0 = performance.now();
    // Seeding is long, silent statements: the pool's stall watch would call them stuck.
    const { branches, feedback } = await withoutStallWatch(() => seed(db, database));
    const seeded = performance.now() - t0;
    const orgId = branches[0]?.orgId ?? '';
    const counts = await sql<{ visits: number; bookings: number }>`
      select (select count(*)::int from visits) as visits,
        (select count(*)::int from bookings) as bookings`.execute(db);
    console.log(
      `\n## ${engine}: ${counts.rows[0]?.visits} visits, ${counts.rows[0]?.bookings} bookings in ` +
        `2 branches (feedback table: ${feedback ? 'yes' : 'no'}); seeded in ${(seeded / 1000).toFixed(1)} s`,
    );

    const organizationIds = [orgId];
    const branchRows = await findBranches(db, organizationIds);
    const options = await insightOptions(db, organizationIds);
    const answer = (from: string, to: string, target: Kysely<DB> = db) =>
      insight(
        target,
        { organizationIds, from, to, serviceId: null, counterId: null },
        branchRows,
        options,
        0,
      );
    const drain = async (kind: 'visits' | 'bookings', from: string, to: string) => {
      let bytes = 0;
      for await (const chunk of exportCsv(db, kind, {
        organizationIds,
        from,
        to,
        timeZone: 'Africa/Douala',
      })) {
        bytes += Buffer.byteLength(chunk);
      }
      return bytes;
    };

    const runs = quick ? 10 : 40;
    const base1 = await time(runs, () => sql`select 1`.execute(db));
    const [yFrom, yTo] = RANGES.year;
    const baseCount = await time(runs, () =>
      sql`select count(*) from visits where organization_id = ${orgId}::uuid
        and visit_date between ${yFrom}::date and ${yTo}::date`.execute(db),
    );
    const rows: [string, { p50: number; p95: number }][] = [
      ['baseline: select 1', base1],
      ['baseline: count(*) of the year of visits', baseCount],
    ];
    for (const [name, [from, to]] of Object.entries(RANGES)) {
      rows.push([`insight ${name}`, await time(runs, () => answer(from, to))]);
    }
    const withService = await time(runs, () =>
      insight(
        db,
        {
          organizationIds,
          from: yFrom,
          to: yTo,
          serviceId: branches[0]?.serviceId ?? null,
          counterId: null,
        },
        branchRows,
        options,
        0,
      ),
    );
    rows.push(['insight year, one service', withService]);
    const exportRuns = quick ? 3 : 8;
    const [mFrom, mTo] = RANGES.month;
    rows.push(['CSV visits month', await time(exportRuns, () => drain('visits', mFrom, mTo))]);
    rows.push(['CSV visits year', await time(exportRuns, () => drain('visits', yFrom, yTo))]);
    rows.push(['CSV bookings year', await time(exportRuns, () => drain('bookings', yFrom, yTo))]);
    const yearBytes = await drain('visits', yFrom, yTo);

    const pad = (s: string, n: number) => s.padEnd(n);
    console.log(
      `${pad('figure', 44)} ${pad('p50 ms', 9)} ${pad('p95 ms', 9)} ${pad('p50/select 1', 13)} p50/count`,
    );
    for (const [name, t] of rows) {
      console.log(
        `${pad(name, 44)} ${pad(t.p50.toFixed(1), 9)} ${pad(t.p95.toFixed(1), 9)} ${pad(
          (t.p50 / base1.p50).toFixed(0),
          13,
        )} ${(t.p50 / baseCount.p50).toFixed(1)}`,
      );
    }
    console.log(`(the year's visits CSV: ${(yearBytes / 1e6).toFixed(1)} MB)`);
    const year = await answer(yFrom, yTo);
    console.log(
      `year's answer: ${year.totals.visits} visits, ${year.totals.served} served, wait median ` +
        `${year.totals.wait_minutes.median} p90 ${year.totals.wait_minutes.p90} min, service median ` +
        `${year.totals.service_minutes.median} min, ${year.daily.length} days, ` +
        `${year.heat_map.length} heat cells, ${year.counters.length} counters, ` +
        `feedback ${year.feedback.count} (avg ${year.feedback.average})`,
    );

    if (engine === 'postgres' && explainPlans) {
      const recorded: { sql: string; parameters: readonly unknown[] }[] = [];
      const recorder: KyselyPlugin = {
        transformQuery(args) {
          const q = compiler.compileQuery(args.node, args.queryId);
          recorded.push({ sql: q.sql, parameters: q.parameters });
          return args.node;
        },
        transformResult(args): Promise<QueryResult<UnknownRow>> {
          return Promise.resolve(args.result);
        },
      };
      const explain = async (label: string, from: string, to: string, full: boolean) => {
        recorded.length = 0;
        await answer(from, to, db.withPlugin(recorder));
        console.log(
          `\n## EXPLAIN (ANALYZE, BUFFERS) of the ${label}'s answer${full ? '' : ' (scans only)'}`,
        );
        for (const q of recorded) {
          const plan = await sql<{ 'QUERY PLAN': string }>`explain (analyze, buffers) ${sql.raw(
            q.sql.replace(/\$(\d+)/g, (_m, i: string) => {
              const v = q.parameters[Number(i) - 1];
              return typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`;
            }),
          )}`.execute(db);
          const lines = plan.rows.map((r) => r['QUERY PLAN']);
          console.log(`\n### ${q.sql.replace(/\s+/g, ' ').slice(0, 110)}…`);
          console.log(
            (full ? lines : lines.filter((l) => /Scan|Execution Time/.test(l))).join('\n'),
          );
        }
      };
      await explain('year', yFrom, yTo, true);
      // A month of one branch among many years of rows: the range is read through the index.
      await explain('month', mFrom, mTo, false);
    }
    return rows.slice(2).map(([name, t]) => {
      const isYear = name === 'insight year';
      return {
        name,
        engine,
        value: Number(t.p50.toFixed(1)),
        unit: 'ms p50',
        baseline: Number(baseCount.p50.toFixed(1)),
        ratio: Number((t.p50 / baseCount.p50).toFixed(1)),
        target: isYear ? `≤ ${YEAR_TARGET_MS} ms` : 'measured',
        met: isYear ? t.p50 <= YEAR_TARGET_MS : true,
        detail: `p95 ${t.p95.toFixed(1)} ms; baseline: count(*) of the year's visits, p50 ${baseCount.p50.toFixed(1)} ms (select 1: ${base1.p50.toFixed(2)} ms)`,
      };
    });
  } finally {
    await database.close().catch(() => undefined);
    // --keep: leave the scratch database for a look with psql (its name is printed).
    if (process.argv.includes('--keep')) console.log(`kept ${scratch?.url}`);
    else await scratch?.drop();
  }
}

/** bench/run.ts's group `insight`: both engines, the plans left out. */
export async function run(opts: { quick: boolean; engines?: Engine[] }): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const engine of opts.engines ?? ['postgres', 'pglite']) {
    figures.push(...(await runEngine(engine, opts.quick, false)));
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const enginesArg = process.argv.find((a) => a.startsWith('--engines='));
  const engines = (enginesArg?.split('=')[1] ?? 'postgres,pglite').split(',') as Engine[];
  for (const engine of engines) await runEngine(engine, quick, true);
}
