import { ACTIVE_BOOKING_STATUSES } from '@qless/contract';
import { sql } from 'kysely';
import type { Db, PaymentRow } from '../../db/schema.js';
import { PAYMENT_CHANNEL } from './payment-events.js';

export function findPaymentById(db: Db, id: string, lock = false): Promise<PaymentRow | undefined> {
  let q = db.selectFrom('payments').selectAll().where('id', '=', id);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export function findPaymentByReference(db: Db, reference: string): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('reference', '=', reference)
    .executeTakeFirst();
}

export function findPaymentByProviderReference(
  db: Db,
  provider: string,
  providerReference: string,
): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_reference', '=', providerReference)
    .forUpdate()
    .executeTakeFirst();
}

/** Serializes initiations for one phone number so the per-phone limit holds under bursts. */
export async function lockPhone(db: Db, phone: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`phone:${phone}`}))`.execute(db);
}

/** Locks a slot row: writers of one slot's bookings take turns (PostgreSQL). */
export async function lockSlot(db: Db, slotId: string): Promise<void> {
  await db.selectFrom('slots').select('id').where('id', '=', slotId).forUpdate().execute();
}

/** The lowest seat of a slot on a date that no active booking holds, or null when full. */
export async function findFreeSeat(
  db: Db,
  slotId: string,
  date: string,
  capacity: number,
): Promise<number | null> {
  const { rows } = await sql<{ seat: number }>`
    select s::int as seat from generate_series(1, ${capacity}::int) as s
    where not exists (
      select 1 from bookings b
      where b.slot_id = ${slotId} and b.booking_date = ${date}::date and b.seat = s
        and b.status in (${sql.join(ACTIVE_BOOKING_STATUSES.map((st) => sql.lit(st)))})
    )
    order by s limit 1`.execute(db);
  return rows[0]?.seat ?? null;
}

/** Holds whose time is up stop counting as taken. Returns how many were expired. */
export async function expireStaleHolds(
  db: Db,
  now: Date,
  scope: { slotId: string; date: string } | { limit: number },
): Promise<number> {
  // The conditions sit on the UPDATE itself: PostgreSQL re-checks them on a row that a
  // concurrent transaction just confirmed, so a paid booking is never lapsed.
  let update = db
    .updateTable('bookings')
    .set({ status: 'expired', updated_at: now })
    .where('status', '=', 'held')
    .where('hold_expires_at', '<=', now);
  if ('slotId' in scope) {
    update = update.where('slot_id', '=', scope.slotId).where('booking_date', '=', scope.date);
  } else {
    update = update.where(
      'id',
      'in',
      db
        .selectFrom('bookings')
        .select('id')
        .where('status', '=', 'held')
        .where('hold_expires_at', '<=', now)
        .limit(scope.limit)
        .forUpdate()
        .skipLocked(),
    );
  }
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function notifyPaymentChanged(db: Db, paymentId: string): Promise<void> {
  await sql`select pg_notify(${PAYMENT_CHANNEL}, ${paymentId})`.execute(db);
}

export async function recordPaymentEvent(
  db: Db,
  event: {
    paymentId: string | null;
    provider: string;
    source: 'callback' | 'status_check' | 'expiry';
    signatureValid: boolean;
    outcome: string;
    payload: Record<string, unknown>;
  },
): Promise<void> {
  await db
    .insertInto('payment_events')
    .values({
      payment_id: event.paymentId,
      provider: event.provider,
      source: event.source,
      signature_valid: event.signatureValid,
      outcome: event.outcome,
      payload: storablePayload(event.payload, event.signatureValid ? 16_384 : 2_048),
    })
    .execute();
}

/**
 * jsonb refuses NUL characters, and rejected callbacks are attacker-controlled: strip NULs
 * and keep at most `maxChars` of the payload.
 */
function storablePayload(payload: Record<string, unknown>, maxChars: number): string {
  const text = JSON.stringify(payload).replaceAll('\\u0000', '');
  return text.length <= maxChars ? text : JSON.stringify({ truncated: text.slice(0, maxChars) });
}

/** Pending payments due for a status check, claimed so that concurrent sweepers skip them. */
export async function claimPaymentsToCheck(
  db: Db,
  now: Date,
  olderThanMs: number,
  limit: number,
): Promise<PaymentRow[]> {
  const cutoff = new Date(now.getTime() - olderThanMs);
  const rows = await db
    .selectFrom('payments')
    .selectAll()
    .where('status', '=', 'PENDING')
    .where('created_at', '<=', cutoff)
    .where((eb) => eb.or([eb('last_checked_at', 'is', null), eb('last_checked_at', '<=', cutoff)]))
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (rows.length > 0) {
    await db
      .updateTable('payments')
      .set({ last_checked_at: now })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
  }
  return rows;
}
