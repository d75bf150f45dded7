/**
 * No-shows and the end of the day (decision 020), swept on every process:
 * - a confirmed booking whose slot started more than the organization's late grace ago and
 *   that nobody checked in becomes a no-show (by 'system'), through the booking status
 *   machinery (one conditional update from 'confirmed': a check-in at the same moment wins
 *   or loses cleanly);
 * - at the organization's closing time (its end_time, in its zone) every visit of that day
 *   still waiting, called or serving is closed as 'left', with its event; visits of earlier
 *   days still open (the server was down at closing) go the same way at the next sweep.
 * Nothing is deleted. Two processes sweeping at once change each row once: every change is
 * conditional on the state it leaves, and a day's visits are closed under the
 * organization's queue lock, the one call-next takes.
 */
import { addDays, OPEN_VISIT_STATES, zonedInstant } from '@qless/contract';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { todayOf } from '../../core/local-time.js';
import type { Db } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import { PeriodicSweep } from '../../periodic.js';
import {
  changeBookingStatus,
  ORGANIZATION_ALLOWED_FROM,
  startsAt,
} from '../bookings/bookings.module.js';
import { notifyQueueChanged } from './queue-events.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

export interface ClosingResult {
  /** Bookings marked no-show by this sweep. */
  noShows: number;
  /** Visits closed as 'left' by this sweep. */
  left: number;
}

function utcDate(at: Date, plusDays = 0): string {
  return new Date(at.getTime() + plusDays * DAY).toISOString().slice(0, 10);
}

/**
 * Confirmed bookings past their slot's start + late grace, not checked in: no-show. Only
 * yesterday's and today's (every zone's today is within a day of UTC's): confirmed bookings
 * of older days, from before the queue existed, keep the status they had.
 */
export async function markMissedBookings(db: Db, now: Date): Promise<number> {
  const candidates = await db
    .selectFrom('bookings as b')
    .innerJoin('slots as s', 's.id', 'b.slot_id')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .select(['b.id', 'b.booking_date', 's.start_time', 'o.time_zone', 'o.queue_grace_late_minutes'])
    .where('b.status', '=', 'confirmed')
    .where('b.booking_date', '>=', utcDate(now, -2))
    .where('b.booking_date', '<=', utcDate(now, 1))
    .execute();
  let marked = 0;
  for (const b of candidates) {
    if (b.booking_date < addDays(todayOf(b, now), -1)) continue;
    const deadline = startsAt(b).getTime() + b.queue_grace_late_minutes * MINUTE;
    if (now.getTime() < deadline) continue;
    const changed = await changeBookingStatus(
      db,
      b.id,
      ORGANIZATION_ALLOWED_FROM.no_show,
      'no_show',
      now,
      'system',
    );
    if (changed) marked += 1;
  }
  return marked;
}

/** Every open visit whose day has closed (its organization's end_time passed): 'left'. */
export async function closeEndedDays(db: Db, now: Date): Promise<number> {
  const open = await db
    .selectFrom('visits as v')
    .innerJoin('organizations as o', 'o.id', 'v.organization_id')
    .select(['v.id', 'v.organization_id', 'v.visit_date', 'o.end_time', 'o.time_zone'])
    .where('v.state', 'in', OPEN_VISIT_STATES)
    .execute();
  const due = new Map<string, string[]>();
  for (const v of open) {
    const closesAt = zonedInstant(v.visit_date, timeToMinutes(v.end_time), v.time_zone);
    if (now.getTime() < closesAt.getTime()) continue;
    const list = due.get(v.organization_id) ?? [];
    list.push(v.id);
    due.set(v.organization_id, list);
  }
  let closed = 0;
  for (const [organizationId, ids] of due) {
    closed += await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`queue:${organizationId}`}, 0))`.execute(
        trx,
      );
      let count = 0;
      // One statement per state left, so each event says where the visit was.
      for (const from of OPEN_VISIT_STATES) {
        const rows = await trx
          .updateTable('visits')
          .set({ state: 'left', ended_at: now, updated_at: now })
          .where('id', 'in', ids)
          .where('state', '=', from)
          .returning(['id', 'counter_id'])
          .execute();
        if (rows.length === 0) continue;
        await trx
          .insertInto('visit_events')
          .values(
            rows.map((r) => ({
              visit_id: r.id,
              organization_id: organizationId,
              kind: 'closed_at_end_of_day',
              from_state: from,
              to_state: 'left',
              counter_id: r.counter_id,
              by_user: null,
              at: now,
            })),
          )
          .execute();
        count += rows.length;
      }
      if (count > 0) await notifyQueueChanged(trx, organizationId);
      return count;
    });
  }
  return closed;
}

/** Runs both every `intervalMs` (QUEUE_SWEEP_INTERVAL_MS) on the injected clock. */
export class QueueClosingSweep {
  private readonly loop: PeriodicSweep<ClosingResult>;

  constructor(
    private readonly deps: { db: Db; clock: Clock; intervalMs: number; log: FastifyBaseLogger },
  ) {
    this.loop = new PeriodicSweep(
      () => this.sweep(),
      deps.intervalMs,
      (err: unknown) => deps.log.error({ err }, 'queue closing sweep failed'),
    );
  }

  async sweep(): Promise<ClosingResult> {
    const { db, clock, log } = this.deps;
    const now = clock.now();
    const noShows = await markMissedBookings(db, now);
    const left = await closeEndedDays(db, now);
    if (noShows > 0 || left > 0) log.info({ noShows, left }, 'queue closing sweep');
    return { noShows, left };
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
