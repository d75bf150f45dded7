/**
 * One person's data, found by phone number or e-mail address (decision 031): the operator's
 * export (everything held, as stored) and erasure (everything at once, the sweep's
 * replacements, upcoming bookings included). Staff accounts are not customers' data: an
 * e-mail that is also an account's finds the messages sent to it, never the account.
 */
import { normalizeCameroonMobile, type PersonalDataExport } from '@qless/contract';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB, Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { WaitlistOffers } from '../waitlist/waitlist.module.js';
import { lockDay } from '../waitlist/waitlist.module.js';
import {
  addCounts,
  type ErasedCounts,
  eraseBookings,
  eraseContactRequests,
  eraseFeedbackComments,
  eraseMessages,
  erasePayments,
  eraseVisits,
  eraseWaitlistEntries,
  NO_ERASURES,
  trimPaymentEvents,
} from './personal-data.repository.js';

/** Whom the operator asks about: an E.164 phone or a lower-case e-mail, never both. */
export type Subject = { phone: string; email: null } | { phone: null; email: string };

/** The subject of a request's phone/email fields; 400 when neither or both, or a bad phone. */
export function subjectOf(
  input: { phone?: string | undefined; email?: string | undefined },
  code: 'INVALID_QUERY' | 'INVALID_BODY',
): Subject {
  if ((input.phone === undefined) === (input.email === undefined)) {
    throw new AppError(400, code, 'Give either a phone number or an e-mail address.');
  }
  if (input.phone !== undefined) {
    const phone = normalizeCameroonMobile(input.phone);
    if (!phone) {
      throw new AppError(400, 'INVALID_PHONE', 'Enter a Cameroonian mobile number (6XX XX XX XX).');
    }
    return { phone, email: null };
  }
  return { phone: null, email: (input.email ?? '').trim().toLowerCase() };
}

/** The subject as a log may show it: the last digits of a phone, the domain of an e-mail. */
export function maskedSubject(subject: Subject): string {
  if (subject.phone !== null) return `…${subject.phone.slice(-3)}`;
  return `…${subject.email.slice(subject.email.lastIndexOf('@'))}`;
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
const plain = (rows: Record<string, unknown>[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, iso(v)])));

/** Ids of everything about the subject (erased rows no longer match: their fields are gone). */
async function findIds(db: Db, s: Subject) {
  const bookingRows = await db
    .selectFrom('bookings')
    .select('id')
    .where((eb) =>
      s.phone
        ? eb('phone_number', '=', s.phone)
        : eb(sql`lower(cus_email)`, '=', s.email).and('cus_email', '<>', ''),
    )
    .execute();
  const bookings = bookingRows.map((r) => r.id);
  const inBookings = (column: string): Expression<SqlBool> =>
    bookings.length > 0 ? sql<SqlBool>`${sql.ref(column)} in (${sql.join(bookings)})` : sql`false`;
  const payments = (
    await db
      .selectFrom('payments')
      .select('id')
      .where((eb) =>
        eb.or([
          ...(s.phone ? [eb('phone_number', '=', s.phone)] : []),
          eb(inBookings('booking_id'), '=', true),
        ]),
      )
      .execute()
  ).map((r) => r.id);
  const visits = (
    await db
      .selectFrom('visits')
      .select('id')
      .where((eb) =>
        eb.or([
          ...(s.phone ? [eb('phone', '=', s.phone)] : []),
          eb(inBookings('booking_id'), '=', true),
        ]),
      )
      .execute()
  ).map((r) => r.id);
  const waitlist = s.phone
    ? await db
        .selectFrom('waitlist_entries')
        .select(['id', 'state', 'service_id', 'booking_date'])
        .where('phone', '=', s.phone)
        .execute()
    : [];
  // Messages: sent to the subject, or about its bookings, visits and waitlist entries.
  const keys = [
    ...visits.map((id) => `visit:${id}:%`),
    ...waitlist.map((w) => `waitlist:${w.id}:%`),
  ];
  const messages = (
    await db
      .selectFrom('outbox')
      .select('id')
      .where((eb) =>
        eb.or([
          eb(sql`lower(to_address)`, '=', s.phone ?? s.email),
          eb(inBookings('booking_id'), '=', true),
          ...keys.map((k) => eb('dedupe_key', 'like', k)),
        ]),
      )
      .execute()
  ).map((r) => r.id);
  // Contact requests hold the phone as typed: compared once normalized.
  const contacts = (
    await db
      .selectFrom('contact_requests')
      .select(['id', 'phone', 'user_email'])
      .where('personal_data_erased_at', 'is', null)
      .where((eb) => (s.phone ? eb('phone', '<>', '') : eb(sql`lower(user_email)`, '=', s.email)))
      .execute()
  )
    .filter((c) => !s.phone || normalizeCameroonMobile(c.phone) === s.phone)
    .map((c) => c.id);
  // Events: of its payments, and those about no payment whose body names the subject.
  const needle = s.phone !== null ? s.phone.slice(-9) : s.email;
  const events = await db
    .selectFrom('payment_events')
    .select(['id', 'payload'])
    .where((eb) =>
      eb.or([
        ...(payments.length > 0 ? [eb('payment_id', 'in', payments)] : []),
        eb.and([
          eb('payment_id', 'is', null),
          eb(sql`lower(payload::text)`, 'like', `%${needle.replace(/[%_\\]/g, '\\$&')}%`),
        ]),
      ]),
    )
    .execute();
  return { bookings, payments, visits, waitlist, messages, contacts, events };
}

const byIds = <T>(ids: readonly string[], load: () => Promise<T[]>) =>
  ids.length > 0 ? load() : Promise.resolve([] as T[]);

/** Everything held about the subject, as stored. */
export async function exportSubject(
  db: Db,
  s: Subject,
  now: Date,
  retentionDays: number,
): Promise<PersonalDataExport> {
  const ids = await findIds(db, s);
  // The phones subscribed to web push for the subject's bookings and visits (their endpoints
  // name devices; the encryption keys are the browser's, not about the person: left out).
  const followed = [
    ...ids.bookings.map((id) => `booking:${id}`),
    ...ids.visits.map((id) => `visit:${id}`),
  ];
  const pushSubscriptions = await byIds(followed, () =>
    db
      .selectFrom('push_subscriptions')
      .select(['id', 'about', 'endpoint', 'locale', 'created_at', 'expires_at', 'gone_at'])
      .where('about', 'in', followed)
      .orderBy('created_at')
      .execute(),
  );
  const [bookings, payments, visits, feedback, waitlist, messages, contacts] = await Promise.all([
    byIds(ids.bookings, () =>
      db
        .selectFrom('bookings as b')
        .innerJoin('organizations as o', 'o.id', 'b.organization_id')
        .innerJoin('services as sv', 'sv.id', 'b.service_id')
        .innerJoin('slots as sl', 'sl.id', 'b.slot_id')
        .select([
          'b.id',
          'o.name as organization_name',
          'sv.name as service_name',
          sql<string>`to_char(b.booking_date, 'YYYY-MM-DD')`.as('booking_date'),
          'sl.start_time',
          'b.status',
          'b.cus_name',
          'b.cus_email',
          'b.phone_number',
          'b.locale',
          'b.client_address',
          'b.ticket_code',
          'b.created_at',
          'b.confirmed_at',
          'b.checked_in_at',
          'b.whatsapp_opt_in_at',
          'b.personal_data_erased_at',
        ])
        .where('b.id', 'in', ids.bookings)
        .orderBy('b.created_at')
        .execute(),
    ),
    byIds(ids.payments, () =>
      db
        .selectFrom('payments')
        .select([
          'id',
          'booking_id',
          'reference',
          'provider',
          'provider_reference',
          'amount',
          'currency',
          'phone_number',
          'status',
          'operator',
          'created_at',
          'settled_at',
        ])
        .where('id', 'in', ids.payments)
        .orderBy('created_at')
        .execute(),
    ),
    byIds(ids.visits, () =>
      db
        .selectFrom('visits as v')
        .innerJoin('organizations as o', 'o.id', 'v.organization_id')
        .select([
          'v.id',
          'o.name as organization_name',
          sql<string>`to_char(v.visit_date, 'YYYY-MM-DD')`.as('visit_date'),
          sql<string>`v.letter || '-' || lpad(v.number::text, 3, '0')`.as('number'),
          'v.source',
          'v.booking_id',
          'v.customer_name',
          'v.phone',
          'v.state',
          'v.client_address',
          'v.whatsapp_opt_in_at',
          'v.arrived_at',
          'v.ended_at',
        ])
        .where('v.id', 'in', ids.visits)
        .orderBy('v.arrived_at')
        .execute(),
    ),
    byIds(ids.visits, () =>
      db
        .selectFrom('visit_feedback')
        .select(['id', 'visit_id', 'rating', 'comment', 'created_at'])
        .where('visit_id', 'in', ids.visits)
        .execute(),
    ),
    byIds(
      ids.waitlist.map((w) => w.id),
      () =>
        db
          .selectFrom('waitlist_entries')
          .select([
            'id',
            'service_id',
            sql<string>`to_char(booking_date, 'YYYY-MM-DD')`.as('booking_date'),
            'phone',
            'state',
            'locale',
            'client_address',
            'created_at',
            'ended_at',
          ])
          .where(
            'id',
            'in',
            ids.waitlist.map((w) => w.id),
          )
          .execute(),
    ),
    byIds(ids.messages, () =>
      db
        .selectFrom('outbox')
        .select([
          'id',
          'channel',
          'kind',
          'status',
          'to_address',
          'subject',
          'text_body',
          'booking_id',
          'created_at',
          'sent_at',
        ])
        .where('id', 'in', ids.messages)
        .orderBy('created_at')
        .execute(),
    ),
    byIds(ids.contacts, () =>
      db
        .selectFrom('contact_requests')
        .select([
          'id',
          'user_name',
          'user_email',
          'contact_name',
          'phone',
          'message',
          'status',
          'created_at',
        ])
        .where('id', 'in', ids.contacts)
        .execute(),
    ),
  ]);
  return {
    subject: { phone: s.phone, email: s.email },
    generated_at: now.toISOString(),
    retention_days: retentionDays,
    bookings: plain(bookings),
    payments: plain(payments),
    payment_events: plain(
      ids.events.map((e) => ({ id: e.id, payload: e.payload }) as Record<string, unknown>),
    ),
    visits: plain(visits),
    feedback: plain(feedback),
    waitlist_entries: plain(waitlist),
    messages: plain(messages),
    contact_requests: plain(contacts),
    push_subscriptions: plain(pushSubscriptions),
  };
}

/**
 * Erases everything about the subject in one transaction. An upcoming booking stays valid
 * for its organization and its holder (ticket and access key work; its messages are
 * skipped); a live waitlist entry is withdrawn first (an offer it held goes to the next);
 * a payment still pending refuses the erasure (409): the reconciler may still need it.
 */
export async function eraseSubject(
  db: Kysely<DB>,
  s: Subject,
  now: Date,
  waitlist: WaitlistOffers,
): Promise<{ erased: ErasedCounts; withdrawn: number }> {
  return db.transaction().execute(async (trx) => {
    const ids = await findIds(trx, s);
    if (ids.payments.length > 0) {
      const pending = await trx
        .selectFrom('payments')
        .select('id')
        .where('id', 'in', ids.payments)
        .where('status', '=', 'PENDING')
        .executeTakeFirst();
      if (pending) {
        throw new AppError(
          409,
          'ERASURE_PAYMENT_PENDING',
          'A payment for this person is under way. Try again once it has settled (a few minutes).',
        );
      }
    }
    let withdrawn = 0;
    for (const entry of ids.waitlist) {
      if (entry.state !== 'waiting' && entry.state !== 'offered') continue;
      await lockDay(trx, entry.service_id, entry.booking_date);
      const ended = await trx
        .updateTable('waitlist_entries')
        .set({ state: 'withdrawn', ended_at: now, updated_at: now })
        .where('id', '=', entry.id)
        .where('state', 'in', ['waiting', 'offered'])
        .executeTakeFirst();
      withdrawn += Number(ended.numUpdatedRows);
      await waitlist.settleDay(trx, entry.service_id, entry.booking_date, now);
    }
    let erased = addCounts(NO_ERASURES, await eraseBookings(trx, ids.bookings, now));
    erased = addCounts(erased, {
      payments: await erasePayments(trx, ids.payments, now),
      payment_events: await trimPaymentEvents(trx, ids.events, now),
      feedback_comments: await eraseFeedbackComments(trx, ids.visits),
      visits: await eraseVisits(trx, ids.visits, now),
      waitlist_entries: await eraseWaitlistEntries(
        trx,
        ids.waitlist.map((w) => w.id),
        now,
      ),
      messages: await eraseMessages(trx, ids.messages, now),
      contact_requests: await eraseContactRequests(trx, ids.contacts, now),
    });
    return { erased, withdrawn };
  });
}
