/**
 * Data for a bench, run as its own process before the server starts (PGlite is one
 * process's database): opens the store named by DATABASE_URL / DATA_DIR as the server
 * would, migrates, seeds the demo, then multiplies it by argv[2] (1, 10, 100…) in a few
 * set-based statements into the real schema, and ANALYZEs.
 *
 * k× the demo means k× each of: organizations, their services, their slots (k−1 copies of
 * every demo organization with its services and live slots), and bookings: every demo
 * booking (they fill the current week) copied into the k−1 weeks before it, on the same
 * service, as past ones (checked in, one in five cancelled). The measured services thus get
 * k weeks of history, and the organization list k× as many entries.
 */
import { DEFAULT_TIME_ZONE } from '@qless/contract';
import { sql } from 'kysely';
import { openDatabase } from '../../apps/api/src/db/database.js';
import { migrateToLatest } from '../../apps/api/src/db/migrate.js';
import { seedDemo } from '../../apps/api/src/demo/seed.js';

const factor = Number(process.argv[2] ?? 1);
if (!Number.isInteger(factor) || factor < 1) throw new Error('usage: grow-data.ts <factor ≥ 1>');
const copies = factor - 1;

const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || null,
  dataDir: process.env.DATA_DIR ?? null,
});
const { db } = database;
try {
  await migrateToLatest(db);
  await seedDemo(db, new Date(), DEFAULT_TIME_ZONE);
  const started = performance.now();
  if (copies > 0) {
    // Copies are named "<demo slug>--g<n>": the demo rows are those without "--g".
    await sql`
      insert into organizations (slug, name, category, city, location, email, image_url,
        time_zone, start_time, end_time, active, open_days, verified_at, change_cutoff_minutes)
      select o.slug || '--g' || g, o.name || ' ' || g, o.category, o.city, o.location,
        'g' || g || '.' || o.email, o.image_url, o.time_zone, o.start_time, o.end_time,
        o.active, o.open_days, o.verified_at, o.change_cutoff_minutes
      from organizations o cross join generate_series(1, ${copies}::int) g
      where o.slug is not null and position('--g' in o.slug) = 0`.execute(db);
    await sql`
      insert into services (organization_id, slug, name, description, duration_minutes,
        capacity, name_fr, description_fr, active)
      select c.id, s.slug, s.name, s.description, s.duration_minutes, s.capacity, s.name_fr,
        s.description_fr, s.active
      from services s
      join organizations o on o.id = s.organization_id and position('--g' in o.slug) = 0
      join organizations c on position('--g' in c.slug) > 0
        and split_part(c.slug, '--g', 1) = o.slug`.execute(db);
    await sql`
      insert into slots (service_id, start_time, end_time)
      select cs.id, sl.start_time, sl.end_time
      from slots sl
      join services s on s.id = sl.service_id
      join organizations o on o.id = s.organization_id and position('--g' in o.slug) = 0
      join organizations c on position('--g' in c.slug) > 0
        and split_part(c.slug, '--g', 1) = o.slug
      join services cs on cs.organization_id = c.id and cs.slug = s.slug
      where sl.retired_at is null`.execute(db);
    await sql`
      insert into bookings (organization_id, service_id, slot_id, booking_date, seat, status,
        cus_name, cus_email, phone_number, ticket_code, confirmed_at, checked_in_at,
        cancelled_by, status_changed_at, created_at, updated_at)
      select b.organization_id, b.service_id, b.slot_id, b.booking_date - 7 * w, b.seat,
        case when w % 5 = 0 then 'cancelled' else 'checked_in' end,
        b.cus_name, b.cus_email, b.phone_number,
        'QL-BENCH-' || replace(gen_random_uuid()::text, '-', ''),
        b.confirmed_at - make_interval(days => 7 * w),
        b.confirmed_at - make_interval(days => 7 * w),
        case when w % 5 = 0 then 'customer' end,
        b.confirmed_at - make_interval(days => 7 * w),
        b.created_at - make_interval(days => 7 * w),
        b.created_at - make_interval(days => 7 * w)
      from bookings b cross join generate_series(1, ${copies}::int) w
      where b.status = 'confirmed'`.execute(db);
  }
  // Statistics as autovacuum would have them on a database that grew over time.
  await sql`analyze`.execute(db);
  const counts = await sql<{ t: string; n: number }>`
    select 'organizations' as t, count(*)::int as n from organizations
    union all select 'services', count(*)::int from services
    union all select 'slots', count(*)::int from slots
    union all select 'bookings', count(*)::int from bookings`.execute(db);
  process.stdout.write(
    `${JSON.stringify({
      factor,
      ms: Math.round(performance.now() - started),
      counts: Object.fromEntries(counts.rows.map((r) => [r.t, r.n])),
    })}\n`,
  );
} finally {
  await database.close();
}
