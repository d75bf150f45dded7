/**
 * The retention sweep (decision 031): what finished more than
 * PERSONAL_DATA_RETENTION_DAYS ago loses its customer's personal data. Every process may run
 * it (with the queue's sweep, every QUEUE_SWEEP_INTERVAL_MS): one cheap "anything due?"
 * question on the partial indexes of migration 020, then batches of conditional updates, so
 * two processes erase each row once. Time is the injected clock's.
 */
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { DB, Db } from '../../db/schema.js';
import { PeriodicSweep } from '../../periodic.js';
import {
  addCounts,
  type ErasedCounts,
  eraseBookings,
  eraseContactRequests,
  eraseMessages,
  eraseVisits,
  eraseWaitlistEntries,
  NO_ERASURES,
  trimPaymentEvents,
} from './personal-data.repository.js';

const DAY = 86_400_000;
/** Rows per statement; a sweep stops after MAX_BATCHES of each kind and runs again at once. */
const BATCH = 200;
const MAX_BATCHES = 10;

export interface RetentionResult extends ErasedCounts {
  /** Some kind reached its cap: more is due (the next sweep starts at once). */
  more: boolean;
}

/** The instant before which finished things are erased. */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * DAY);
}

/** The UTC date of `at` (a day's bookings all end by the next UTC day in any zone). */
const utcDate = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Whether anything is due. Each question is the oldest time of a partial index of migration
 * 020 (rows not yet erased), read as `min()`: the first entry of the index, whatever the
 * planner's statistics say (an `exists` with a range chose a sequential scan on stale ones).
 */
export async function retentionDue(db: Db, cutoff: Date): Promise<boolean> {
  const { rows } = await sql<{ due: boolean }>`
    select coalesce(
      (select min(booking_date) from bookings where personal_data_erased_at is null)
        <= ${utcDate(cutoff)}::date
      or (select min(updated_at) from bookings where personal_data_erased_at is null
        and status in ('cancelled', 'expired')) < ${cutoff}
      or (select min(received_at) from payment_events where personal_data_erased_at is null
        and payment_id is null) < ${cutoff}
      or (select min(ended_at) from visits where personal_data_erased_at is null) < ${cutoff}
      or (select min(updated_at) from waitlist_entries where personal_data_erased_at is null
        and state not in ('waiting', 'offered')) < ${cutoff}
      or (select min(created_at) from outbox where personal_data_erased_at is null
        and status <> 'pending' and booking_id is null) < ${cutoff}
      or (select min(created_at) from contact_requests where personal_data_erased_at is null)
        < ${cutoff},
      false) as due`.execute(db);
  return rows[0]?.due === true;
}

/**
 * Bookings finished before `cutoff`: cancelled or expired then, or whose slot ended then
 * (the slot's end on its date, in the organization's zone). A held booking is never due.
 */
async function dueBookings(db: Db, cutoff: Date): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    (select b.id from bookings b
      where b.personal_data_erased_at is null and b.status in ('cancelled', 'expired')
        and b.updated_at < ${cutoff}
      limit ${BATCH})
    union
    (select b.id from bookings b
      join slots s on s.id = b.slot_id
      join organizations o on o.id = b.organization_id
      where b.personal_data_erased_at is null and b.status <> 'held'
        and b.booking_date <= ${utcDate(cutoff)}::date
        and ((b.booking_date + s.end_time) at time zone o.time_zone) < ${cutoff}
      limit ${BATCH})`.execute(db);
  return rows.map((r) => r.id);
}

async function dueIds(
  db: Db,
  table: 'visits' | 'waitlist_entries' | 'outbox' | 'contact_requests',
  cutoff: Date,
): Promise<string[]> {
  const { rows } = await (table === 'visits'
    ? sql<{ id: string }>`select id from visits where personal_data_erased_at is null
        and ended_at < ${cutoff} and state in ('done', 'no_show', 'left', 'transferred')
        limit ${BATCH}`
    : table === 'waitlist_entries'
      ? sql<{ id: string }>`select id from waitlist_entries where personal_data_erased_at is null
          and state not in ('waiting', 'offered') and updated_at < ${cutoff} limit ${BATCH}`
      : table === 'outbox'
        ? sql<{ id: string }>`select id from outbox where personal_data_erased_at is null
            and status <> 'pending' and created_at < ${cutoff} and booking_id is null
            and coalesce(sent_at, created_at) < ${cutoff} limit ${BATCH}`
        : sql<{ id: string }>`select id from contact_requests where personal_data_erased_at is null
            and created_at < ${cutoff} and coalesce(handled_at, created_at) < ${cutoff}
            limit ${BATCH}`
  ).execute(db);
  return rows.map((r) => r.id);
}

/**
 * Bookings with their payments, messages and payment events, in one transaction: a booking
 * is never left erased with its events whole (nothing would find them again).
 */
async function eraseBookingsAndEvents(
  db: Kysely<DB>,
  ids: readonly string[],
  now: Date,
): Promise<Partial<ErasedCounts>> {
  if (ids.length === 0) return {};
  return db.transaction().execute(async (trx) => {
    const erased = await eraseBookings(trx, ids, now);
    const events = await trx
      .selectFrom('payment_events as e')
      .innerJoin('payments as p', 'p.id', 'e.payment_id')
      .select(['e.id', 'e.payload'])
      .where('p.booking_id', 'in', ids)
      .where('e.personal_data_erased_at', 'is', null)
      .execute();
    return { ...erased, payment_events: await trimPaymentEvents(trx, events, now) };
  });
}

/** Repeats one kind's batch until it erases nothing or reaches its cap. */
async function drain(step: () => Promise<{ found: number; erased: Partial<ErasedCounts> }>) {
  let counts = NO_ERASURES;
  for (let i = 0; i < MAX_BATCHES; i += 1) {
    const { found, erased } = await step();
    counts = addCounts(counts, erased);
    if (found < BATCH) return { counts, more: false };
  }
  return { counts, more: true };
}

/** One pass of the sweep at `now`. */
export async function sweepPersonalData(
  db: Kysely<DB>,
  now: Date,
  retentionDays: number,
): Promise<RetentionResult> {
  const cutoff = retentionCutoff(now, retentionDays);
  if (!(await retentionDue(db, cutoff))) return { ...NO_ERASURES, more: false };
  const steps: (() => Promise<{ found: number; erased: Partial<ErasedCounts> }>)[] = [
    async () => {
      const ids = await dueBookings(db, cutoff);
      return { found: ids.length, erased: await eraseBookingsAndEvents(db, ids, now) };
    },
    async () => {
      // Events about no payment of ours (those of a payment go with its booking).
      const events = await db
        .selectFrom('payment_events')
        .select(['id', 'payload'])
        .where('personal_data_erased_at', 'is', null)
        .where('received_at', '<', cutoff)
        .where('payment_id', 'is', null)
        .limit(BATCH)
        .execute();
      return {
        found: events.length,
        erased: { payment_events: await trimPaymentEvents(db, events, now) },
      };
    },
    async () => {
      const ids = await dueIds(db, 'visits', cutoff);
      return { found: ids.length, erased: { visits: await eraseVisits(db, ids, now) } };
    },
    async () => {
      const ids = await dueIds(db, 'waitlist_entries', cutoff);
      return {
        found: ids.length,
        erased: { waitlist_entries: await eraseWaitlistEntries(db, ids, now) },
      };
    },
    async () => {
      const ids = await dueIds(db, 'outbox', cutoff);
      return { found: ids.length, erased: { messages: await eraseMessages(db, ids, now) } };
    },
    async () => {
      const ids = await dueIds(db, 'contact_requests', cutoff);
      return {
        found: ids.length,
        erased: { contact_requests: await eraseContactRequests(db, ids, now) },
      };
    },
  ];
  let counts = NO_ERASURES;
  let more = false;
  for (const step of steps) {
    const done = await drain(step);
    counts = addCounts(counts, done.counts);
    more ||= done.more;
  }
  return { ...counts, more };
}

/** The sweep on a timer; the log says how many rows of each kind it erased (never whose). */
export class PersonalDataSweep {
  private readonly loop: PeriodicSweep<RetentionResult>;

  constructor(deps: {
    db: Kysely<DB>;
    clock: Clock;
    retentionDays: number;
    intervalMs: number;
    log: FastifyBaseLogger;
  }) {
    this.loop = new PeriodicSweep(
      async () => {
        const result = await sweepPersonalData(deps.db, deps.clock.now(), deps.retentionDays);
        const { more, ...counts } = result;
        if (Object.values(counts).some((c) => c > 0)) {
          deps.log.info({ erased: counts }, 'personal data past its retention erased');
        }
        return result;
      },
      deps.intervalMs,
      (err) => deps.log.error({ err }, 'personal data sweep failed'),
      { runAgain: (result) => result.more },
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
