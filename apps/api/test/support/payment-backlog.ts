import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import type { Fixture } from './fixtures.js';

/**
 * `count` pending simulator payments, each holding its own seat of one slot on one date,
 * inserted in two statements (initiating thousands one by one would measure initiation).
 * Their references say "settled successfully at epoch 0", so any status check settles them.
 */
export async function insertPendingBacklog(
  database: Database,
  fx: Fixture,
  count: number,
  createdAt: Date,
): Promise<string[]> {
  const db = database.db;
  const holdUntil = new Date(createdAt.getTime() + 24 * 3600_000);
  const tag = `bulk-${createdAt.getTime()}-${Math.random().toString(36).slice(2, 8)}`;
  await sql`
    with held as (
      insert into bookings (organization_id, service_id, slot_id, booking_date, seat, status,
                            hold_expires_at, cus_name, cus_email, phone_number)
      select ${fx.orgId}, ${fx.serviceId}, ${fx.slotIds[0]}, date '2026-04-01', g, 'held',
             ${holdUntil}, 'Bulk Payer', 'bulk@example.com', '+237677123456'
      from generate_series(1, ${count}::int) g
      returning id
    )
    insert into payments (booking_id, reference, request_fingerprint, provider, amount, currency,
                          phone_number, status, created_at, updated_at)
    select id, ${tag} || '-' || id, 'bulk', 'simulator', 2, 'XAF', '+237677123456', 'PENDING',
           ${createdAt}, ${createdAt}
    from held`.execute(db);
  const rows = await db
    .updateTable('payments')
    .set({ provider_reference: sql`'sim_S_0_2_XAF_' || id` })
    .where('reference', 'like', `${tag}-%`)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
