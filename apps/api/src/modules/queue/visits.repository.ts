/**
 * Visits in the database: the organization's queue lock, letters and numbers, a visit
 * entering, every later transition (each with its visit_events row). The queue's rules
 * (who may do what, and when) are the services' (queue-line, queue-setup, counter-desk and the
 * files they delegate to); this file only writes what it is told.
 */

import type { CallReason, PriorityCategory, VisitSource, VisitState } from '@qless/contract';
import { sql, type Updateable } from 'kysely';
import type { Db, VisitRow, VisitsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { freshFollowCode } from './follow-codes.js';
import { QUEUE_CHANNEL } from './queue-events.js';
import { plannedLetters } from './queue-letters.js';

/** The highest number a letter reaches in a day (three digits are said aloud: A-999). */
export const MAX_VISIT_NUMBER = 999;

/** Runs `work` in `db`'s transaction when it is one, else in a new one. */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  return db.transaction().execute(work);
}

/**
 * The organization's queue lock, held until the transaction ends: every change of one
 * organization's queue (a visit entering, a call, a transition) runs one at a time, so a
 * read of who waits stays true until the write that follows it. Other organizations are
 * not held up.
 */
export async function lockQueue(
  trx: Db,
  organizationId: string,
  { notify = false }: { notify?: boolean } = {},
): Promise<void> {
  const key = sql`hashtextextended(${`queue:${organizationId}`}, 0)`;
  // With `notify`, the queue's change notification goes in the same round trip (it is
  // delivered at commit, like one sent last): one less while the lock is held.
  await (notify
    ? sql`select pg_advisory_xact_lock(${key}), pg_notify(${QUEUE_CHANNEL}, ${organizationId})`
    : sql`select pg_advisory_xact_lock(${key})`
  ).execute(trx);
}

/**
 * A counter's lock, held until the transaction ends: one act of a counter at a time (a
 * double tap, Undo, closing it). Taken before the organization's queue lock, never after,
 * by every transaction that takes both.
 */
export async function lockCounter(trx: Db, counterId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`counter:${counterId}`}, 0))`.execute(
    trx,
  );
}

/**
 * The service's letter, given on its first visit when the admin chose none: the letter Queue
 * setup showed for it (plannedLetters: by creation order, the first one no other service
 * takes). Under the queue lock, so two first visits cannot take the same one. 409 QUEUE_FULL
 * once every letter is taken.
 */
export async function letterFor(
  trx: Db,
  organizationId: string,
  serviceId: string,
): Promise<string> {
  const rows = await trx
    .selectFrom('services')
    .select(['id', 'queue_letter', 'active'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const own = rows.find((r) => r.id === serviceId);
  if (!own) throw new AppError(404, 'SERVICE_NOT_FOUND', 'No such service in this organization.');
  if (own.queue_letter) return own.queue_letter;
  const services = rows.map((r) => ({ id: r.id, letter: r.queue_letter, active: r.active }));
  // A retired service plans none: one visited anyway takes the first letter left.
  const planned = plannedLetters(
    services.map((s) => (s.id === serviceId ? { ...s, active: true } : s)),
  );
  const free = planned.get(serviceId);
  if (!free) {
    throw new AppError(409, 'QUEUE_FULL', 'Every letter is taken by another service: choose one.');
  }
  await trx
    .updateTable('services')
    .set({ queue_letter: free })
    .where('id', '=', serviceId)
    .where('queue_letter', 'is', null)
    .execute();
  return free;
}

/** The next number of a letter today: one upsert (rolled back with the visit if it fails). */
export async function nextNumber(
  trx: Db,
  organizationId: string,
  date: string,
  letter: string,
): Promise<number> {
  const row = await trx
    .insertInto('visit_numbers')
    .values({ organization_id: organizationId, visit_date: date, letter, last_number: 1 })
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'visit_date', 'letter'])
        .doUpdateSet({ last_number: sql`visit_numbers.last_number + 1` }),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow();
  if (row.last_number > MAX_VISIT_NUMBER) {
    throw new AppError(
      409,
      'QUEUE_FULL',
      `This service has given its ${MAX_VISIT_NUMBER} numbers for today.`,
    );
  }
  return row.last_number;
}

export interface VisitEvent {
  visitId: string;
  organizationId: string;
  kind: string;
  from: VisitState | null;
  to: VisitState;
  counterId: string | null;
  byUser: string | null;
  at: Date;
}

export async function recordVisitEvent(trx: Db, e: VisitEvent): Promise<void> {
  await trx
    .insertInto('visit_events')
    .values({
      visit_id: e.visitId,
      organization_id: e.organizationId,
      kind: e.kind,
      from_state: e.from,
      to_state: e.to,
      counter_id: e.counterId,
      by_user: e.byUser,
      at: e.at,
    })
    .execute();
}

export interface NewVisit {
  organizationId: string;
  serviceId: string;
  date: string;
  source: VisitSource;
  bookingId?: string | null;
  customerName: string;
  phone: string | null;
  /** The visitor asked for their turn by WhatsApp (decision 144): it is recorded now. */
  whatsapp?: boolean | undefined;
  locale: 'en' | 'fr';
  slotStart?: Date | null;
  arrivedAt: Date;
  queuedAt: Date;
  /** Orders it among first-come visitors instead of queuedAt (a transfer by arrival). */
  placeAt?: Date | null;
  /** A transfer put first in its new line. */
  ahead?: boolean;
  clientAddress?: string | null;
  createdBy?: string | null;
  /** A transfer keeps the customer's letter and number. */
  keep?: { letter: string; number: number; from: string } | null;
  /** The kiosk's id of the press (one visit per press). */
  requestId?: string | null;
  /** A category the organization serves first (decision 138); checked by enterQueue. */
  priorityCategory?: PriorityCategory | null;
  /** A transfer to a named counter (decision 139). */
  forCounterId?: string | null;
}

/** A visit enters the line (the caller holds the queue lock): its number, its first event. */
export async function insertVisit(trx: Db, v: NewVisit, now: Date): Promise<VisitRow> {
  let letter: string;
  let number: number;
  if (v.keep) {
    letter = v.keep.letter;
    number = v.keep.number;
  } else {
    letter = await letterFor(trx, v.organizationId, v.serviceId);
    number = await nextNumber(trx, v.organizationId, v.date, letter);
  }
  const row = await trx
    .insertInto('visits')
    .values({
      organization_id: v.organizationId,
      service_id: v.serviceId,
      visit_date: v.date,
      letter,
      number,
      source: v.source,
      booking_id: v.bookingId ?? null,
      customer_name: v.customerName,
      phone: v.phone,
      whatsapp_opt_in_at: v.whatsapp && v.phone ? now : null,
      locale: v.locale,
      slot_start: v.slotStart ?? null,
      arrived_at: v.arrivedAt,
      queued_at: v.queuedAt,
      place_at: v.placeAt ?? null,
      ahead: v.ahead ?? false,
      transferred_from: v.keep?.from ?? null,
      client_address: v.clientAddress ?? null,
      created_by: v.createdBy ?? null,
      // A walk-in's slip carries it (a booked visitor has their ticket; a transfer keeps its
      // first visit's, which the turn's page follows).
      follow_code: v.source === 'booking' || v.keep ? null : await freshFollowCode(trx),
      request_id: v.requestId ?? null,
      priority_category: v.priorityCategory ?? null,
      for_counter_id: v.forCounterId ?? null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordVisitEvent(trx, {
    visitId: row.id,
    organizationId: v.organizationId,
    kind: v.keep ? 'transferred_in' : `entered_${v.source}`,
    from: null,
    to: 'waiting',
    counterId: null,
    byUser: v.createdBy ?? null,
    at: now,
  });
  return row;
}

/**
 * Moves a visit from one of `from` to `to` with `set`, and records it; null when the visit was
 * in none of `from` (someone else moved it first).
 */
export async function transitionVisit(
  trx: Db,
  visit: Pick<VisitRow, 'id' | 'organization_id'>,
  change: {
    from: readonly VisitState[];
    to: VisitState;
    kind: string;
    set?: Omit<Updateable<VisitsTable>, 'state' | 'updated_at'>;
    counterId: string | null;
    byUser: string | null;
  },
  now: Date,
): Promise<VisitRow | null> {
  const current = await trx
    .selectFrom('visits')
    .select('state')
    .where('id', '=', visit.id)
    .forUpdate()
    .executeTakeFirst();
  if (!current || !change.from.includes(current.state)) return null;
  const row = await trx
    .updateTable('visits')
    .set({ ...change.set, state: change.to, updated_at: now })
    .where('id', '=', visit.id)
    .where('state', '=', current.state)
    .returningAll()
    .executeTakeFirst();
  if (!row) return null;
  const before = current.state;
  await recordVisitEvent(trx, {
    visitId: row.id,
    organizationId: visit.organization_id,
    kind: change.kind,
    from: before,
    to: change.to,
    counterId: change.counterId,
    byUser: change.byUser,
    at: now,
  });
  return row;
}

/**
 * Call next's claim in one statement: a waiting visit becomes called at the counter, with its
 * 'called' event; null when it was no longer waiting. `notified`: its "go to counter" SMS is
 * queued in the same transaction.
 */
export async function claimVisit(
  trx: Db,
  c: {
    visitId: string;
    counterId: string;
    byUser: string | null;
    notified: boolean;
    /** How the ratio counts this call (decision 138); null or absent: outside it. */
    callKind?: 'priority' | 'regular' | null;
    /** A call out of order: its reason, kept on the visit and its event (decision 139). */
    reason?: CallReason | null;
  },
  now: Date,
): Promise<VisitRow | null> {
  const reason = c.reason ?? null;
  const claimed = await trx
    .with('claimed', (db) =>
      db
        .updateTable('visits')
        .set({
          state: 'called',
          counter_id: c.counterId,
          called_at: now,
          updated_at: now,
          call_kind: c.callKind ?? null,
          call_reason: reason,
          ...(c.notified ? { called_notified_at: now } : {}),
        })
        .where('id', '=', c.visitId)
        .where('state', '=', 'waiting')
        .returningAll(),
    )
    .with('event', (db) =>
      db
        .insertInto('visit_events')
        .columns([
          'visit_id',
          'organization_id',
          'kind',
          'from_state',
          'to_state',
          'counter_id',
          'by_user',
          'at',
          'call_kind',
          'reason',
        ])
        .expression((eb) =>
          eb
            .selectFrom('claimed')
            .select([
              'claimed.id',
              'claimed.organization_id',
              sql.lit('called').as('kind'),
              sql.lit('waiting').as('from_state'),
              sql.lit('called').as('to_state'),
              sql.val(c.counterId).as('counter_id'),
              sql.val(c.byUser).as('by_user'),
              sql.val(now).as('at'),
              sql.val(c.callKind ?? null).as('call_kind'),
              sql.val(reason).as('reason'),
            ]),
        ),
    )
    .selectFrom('claimed')
    .selectAll()
    .executeTakeFirst();
  return (claimed as VisitRow | undefined) ?? null;
}

export function findVisit(db: Db, visitId: string): Promise<VisitRow | undefined> {
  return db.selectFrom('visits').selectAll().where('id', '=', visitId).executeTakeFirst();
}

/** The visit a counter holds (called or serving), if any. */
export function heldBy(db: Db, counterId: string): Promise<VisitRow | undefined> {
  return db
    .selectFrom('visits')
    .selectAll()
    .where('counter_id', '=', counterId)
    .where('state', 'in', ['called', 'serving'])
    .executeTakeFirst();
}
