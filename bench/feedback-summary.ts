import { addDays } from '@qless/contract';
import { sql } from 'kysely';
import { withoutStallWatch } from '../apps/api/src/db/pg-pool.js';
import { feedbackSummary } from '../apps/api/src/modules/feedback/feedback.repository.js';
import { createFixture } from '../apps/api/test/support/fixtures.js';
import { createTestDatabase } from '../apps/api/test/support/test-db.js';

/**
 * feedbackSummary (issue 20, Insight's "a word after the visit") over a year: two branches of
 * `perDay` answers a day each for 365 days (a comment on one in four), on a scratch
 * PostgreSQL database (dropped at the end), VACUUM ANALYZE, then the day's, the month's and
 * the year's summary of one branch, 20 runs each after 3 of warm-up, with the plans.
 *
 *   npx tsx bench/feedback-summary.ts [perDay=300]
 */
const TODAY = '2026-11-26';
const PER_DAY = Number(process.argv[2] ?? 300); // answers a day in the measured branch
async function main() {
  const tdb = await createTestDatabase('postgres');
  const db = tdb.database.db;
  try {
    const now = new Date('2026-11-26T10:00:00Z');
    const a = await createFixture(tdb.database, now, '-a');
    const b = await createFixture(tdb.database, now, '-b');
    // Seeding and VACUUM take longer than the pool's stall watch allows a statement.
    await withoutStallWatch(async () => {
      for (const fx of [a, b]) {
        await sql`insert into visits (organization_id, service_id, visit_date, letter, number, source,
        arrived_at, queued_at, state, ended_at, phone, locale)
      select ${fx.orgId}::uuid, case when n % 3 = 0 then ${fx.otherServiceId}::uuid else ${fx.serviceId}::uuid end,
        (${TODAY}::date - d), 'A', n, 'staff', now(), now(), 'done', now(), '+237677000000', 'fr'
      from generate_series(0, 364) d, generate_series(1, ${PER_DAY}) n`.execute(db);
        await sql`insert into visit_feedback (visit_id, organization_id, service_id, visit_date, rating, comment, locale, created_at)
      select id, organization_id, service_id, visit_date, 1 + (abs(hashtext(id::text)) % 5),
        case when abs(hashtext(id::text)) % 4 = 0 then 'Accueil rapide, merci ' || number else null end, 'fr',
        visit_date + interval '12 hours' + (number * interval '1 second')
      from visits where organization_id = ${fx.orgId}::uuid`.execute(db);
      }
      await sql`vacuum analyze`.execute(db);
    });
    const rows = await db
      .selectFrom('visit_feedback')
      .select(sql<string>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      `visit_feedback rows: ${rows.n} (two branches, ${PER_DAY} answers a day each, 365 days)`,
    );
    for (const [name, from] of [
      ['day', TODAY],
      ['month', addDays(TODAY, -29)],
      ['year', addDays(TODAY, -364)],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < 23; i++) {
        const t0 = performance.now();
        await feedbackSummary(db, [a.orgId], from, TODAY);
        times.push(performance.now() - t0);
      }
      const s = times.slice(3).sort((x, y) => x - y);
      console.log(`${name}: p50 ${s[10]?.toFixed(1)} ms, p95 ${s[18]?.toFixed(1)} ms`);
    }
    const t = performance.now();
    const r = await feedbackSummary(db, [a.orgId], addDays(TODAY, -364), TODAY, {
      serviceId: a.serviceId,
    });
    console.log(
      `year, one service: ${(performance.now() - t).toFixed(1)} ms, count ${r.count}, avg ${r.average}`,
    );
    for (const q of [
      sql`explain (analyze, buffers) select rating, count(*) from visit_feedback f where organization_id = ${a.orgId}::uuid and visit_date between ${addDays(TODAY, -364)} and ${TODAY} group by rating`,
      sql`explain (analyze, buffers) select f.rating, f.comment, s.name from visit_feedback f join services s on s.id = f.service_id where f.organization_id in (${a.orgId}::uuid) and f.visit_date >= ${addDays(TODAY, -364)} and f.visit_date <= ${TODAY} and f.comment is not null order by f.visit_date desc, f.created_at desc, f.id desc limit 50`,
    ]) {
      const { rows } = await q.execute(db);
      console.log((rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n'));
    }
  } finally {
    await tdb.cleanup();
  }
}

await main();
