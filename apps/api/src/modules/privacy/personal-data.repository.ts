/**
 * Erasing a customer's personal data (decision 031): the one place that says what is
 * replaced in each table, used by the retention sweep and by an operator's erasure. Every
 * change is conditional on `personal_data_erased_at is null` and sets it, so two processes
 * (or a sweep and an operator) erase each row once; nothing is deleted, states, counts,
 * amounts, references and timestamps stay.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/schema.js';

/** A NOT NULL name column's placeholder ('—' reads the same in English and French). */
export const ERASED_NAME = '—';

/** Rows erased, per kind (the operator's answer; the sweep's log line). */
export interface ErasedCounts {
  bookings: number;
  payments: number;
  payment_events: number;
  visits: number;
  waitlist_entries: number;
  messages: number;
  contact_requests: number;
  feedback_comments: number;
}

export const NO_ERASURES: ErasedCounts = {
  bookings: 0,
  payments: 0,
  payment_events: 0,
  visits: 0,
  waitlist_entries: 0,
  messages: 0,
  contact_requests: 0,
  feedback_comments: 0,
};

export function addCounts(a: ErasedCounts, b: Partial<ErasedCounts>): ErasedCounts {
  const out = { ...a };
  for (const key of Object.keys(out) as (keyof ErasedCounts)[]) out[key] += b[key] ?? 0;
  return out;
}

const n = (value: unknown) => Number(value ?? 0);

/**
 * Bookings, their payments and their messages, in one statement: name, e-mail, phone and
 * client address of the booking; the payer's number; each message's recipient and text (a
 * message still waiting is skipped: there is no one left to send it to); its WhatsApp opt-in;
 * its phones' web push subscriptions (deleted).
 */
export async function eraseBookings(
  db: Db,
  ids: readonly string[],
  now: Date,
): Promise<Pick<ErasedCounts, 'bookings' | 'payments' | 'messages'>> {
  if (ids.length === 0) return { bookings: 0, payments: 0, messages: 0 };
  const result = await sql<{ bookings: string; payments: string; messages: string }>`
    with b as (
      update bookings set cus_name = ${ERASED_NAME}, cus_email = '', phone_number = '',
        client_address = null, whatsapp_opt_in_at = null, personal_data_erased_at = ${now}
      where id in (${sql.join(ids)}) and personal_data_erased_at is null
      returning id
    ), p as (
      update payments set phone_number = '', personal_data_erased_at = ${now}
      where booking_id in (select id from b) and personal_data_erased_at is null
      returning id
    ), o as (
      ${eraseOutboxSql(now, sql`booking_id in (select id from b)`)}
    ), ps as (
      delete from push_subscriptions
      where about in (select 'booking:' || id from b)
        or about in (select 'visit:' || v.id from visits v where v.booking_id in (select id from b))
      returning id
    ), po as (
      ${eraseOutboxSql(now, sql`channel = 'push' and to_address in (select id::text from ps)`)}
    )
    select (select count(*) from b) as bookings, (select count(*) from p) as payments,
      (select count(*) from o) as messages
  `.execute(db);
  const row = result.rows[0];
  return { bookings: n(row?.bookings), payments: n(row?.payments), messages: n(row?.messages) };
}

/** An outbox update erasing the rows `where` picks (a statement or a CTE's body). */
function eraseOutboxSql(now: Date, where: ReturnType<typeof sql>) {
  return sql`
    update outbox set to_address = '', subject = null, text_body = null, html_body = null,
      last_error = null, personal_data_erased_at = ${now},
      next_attempt_at = case when status = 'pending' then null else next_attempt_at end,
      status = case when status = 'pending' then 'skipped' else status end
    where (${where}) and personal_data_erased_at is null
    returning id`;
}

/** Payments by id (the payer's number of a payment for someone else's booking). */
export async function erasePayments(db: Db, ids: readonly string[], now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .updateTable('payments')
    .set({ phone_number: '', personal_data_erased_at: now })
    .where('id', 'in', ids)
    .where('personal_data_erased_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length;
}

/** Outbox rows by id: recipient, text and error gone; a waiting one is skipped. */
export async function eraseMessages(db: Db, ids: readonly string[], now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await eraseOutboxSql(now, sql`id in (${sql.join(ids)})`).execute(db);
  return result.rows.length;
}

export async function eraseVisits(db: Db, ids: readonly string[], now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  // A phone's push subscription names its device: it goes with the visit, and its pushes'
  // texts (they hold the visit's link) with it.
  const gone = await db
    .deleteFrom('push_subscriptions')
    .where(
      'about',
      'in',
      ids.map((id) => `visit:${id}`),
    )
    .returning('id')
    .execute();
  if (gone.length > 0) {
    await eraseOutboxSql(
      now,
      sql`channel = 'push' and to_address in (${sql.join(gone.map((g) => g.id))})`,
    ).execute(db);
  }
  const rows = await db
    .updateTable('visits')
    .set({
      customer_name: '',
      phone: null,
      client_address: null,
      whatsapp_opt_in_at: null,
      personal_data_erased_at: now,
    })
    .where('id', 'in', ids)
    .where('personal_data_erased_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length;
}

/** Waitlist entries that have ended (a live one is withdrawn first by the caller). */
export async function eraseWaitlistEntries(
  db: Db,
  ids: readonly string[],
  now: Date,
): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .updateTable('waitlist_entries')
    .set({ phone: '', client_address: null, personal_data_erased_at: now })
    .where('id', 'in', ids)
    .where('personal_data_erased_at', 'is', null)
    .where('state', 'not in', ['waiting', 'offered'])
    .returning('id')
    .execute();
  return rows.length;
}

export async function eraseContactRequests(
  db: Db,
  ids: readonly string[],
  now: Date,
): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .updateTable('contact_requests')
    .set({
      user_name: ERASED_NAME,
      user_email: '',
      message: '',
      contact_name: '',
      phone: '',
      personal_data_erased_at: now,
    })
    .where('id', 'in', ids)
    .where('personal_data_erased_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length;
}

/** The comments of these visits' feedback (the rating stays: Insight counts it). */
export async function eraseFeedbackComments(db: Db, visitIds: readonly string[]): Promise<number> {
  if (visitIds.length === 0) return 0;
  const rows = await db
    .updateTable('visit_feedback')
    .set({ comment: null })
    .where('visit_id', 'in', visitIds)
    .where('comment', 'is not', null)
    .returning('id')
    .execute();
  return rows.length;
}

/**
 * What a payment event keeps: its state, amount, references and times. Everything else a
 * provider sent (the payer's number, name, e-mail, a raw body cut short) is dropped.
 */
const KEPT_KEYS = new Set([
  'status',
  'amount',
  'currency',
  'reference',
  'external_reference',
  'providerReference',
  'provider_reference',
  'paymentId',
  'payment_id',
  'operator',
  'operator_reference',
  'operatorReference',
  'code',
  'endpoint',
  'reason',
]);
/** Objects that hold a provider's answer inside an event (the callback and the status check). */
const KEPT_OBJECTS = new Set(['callback', 'provider', 'body', 'query', 'data']);
const TIME_KEY = /(^|_)(at|time|date|timestamp)$|At$/;

export function trimPayload(payload: unknown, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload) || depth > 3) {
    return out;
  }
  for (const [key, value] of Object.entries(payload as Record<string, unknown>)) {
    if (KEPT_OBJECTS.has(key) && typeof value === 'object' && value !== null) {
      const inner = trimPayload(value, depth + 1);
      if (Object.keys(inner).length > 0) out[key] = inner;
      continue;
    }
    const scalar =
      value === null ||
      typeof value === 'number' ||
      typeof value === 'boolean' ||
      (typeof value === 'string' && value.length <= 100);
    if (scalar && (KEPT_KEYS.has(key) || TIME_KEY.test(key))) out[key] = value;
  }
  return out;
}

/** Payment events by id: their payloads trimmed, one conditional update per 200. */
export async function trimPaymentEvents(
  db: Db,
  events: readonly { id: string; payload: unknown }[],
  now: Date,
): Promise<number> {
  let trimmed = 0;
  for (let i = 0; i < events.length; i += 200) {
    const rows = events
      .slice(i, i + 200)
      .map((e) => sql`(${e.id}::uuid, ${JSON.stringify(trimPayload(e.payload))}::jsonb)`);
    const result = await sql`
      update payment_events e set payload = t.payload, personal_data_erased_at = ${now}
      from (values ${sql.join(rows)}) as t(id, payload)
      where e.id = t.id and e.personal_data_erased_at is null`.execute(db);
    trimmed += Number(result.numAffectedRows ?? 0);
  }
  return trimmed;
}
