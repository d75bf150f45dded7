import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  daysBetween,
  type WaitlistEntry,
  type WaitlistJoinResponse,
  type WaitlistStateName,
} from '@qless/contract';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { DB, Db, WaitlistEntryRow } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../errors.js';
import {
  countActive,
  findActiveEntry,
  findEntry,
  lockDay,
  lockPhone,
  positionOf,
  readDay,
  readSlots,
  type WaitlistDay,
} from './waitlist.repository.js';
import type { WaitlistOffers } from './waitlist-offers.js';

/** Entries one number may have waiting (or offered) at once, on any services and days. */
export const MAX_ACTIVE_PER_PHONE = 3;
/** Entries one service-day takes: a line longer than this would never be reached. */
export const MAX_PER_DAY = 200;

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

function keyMatches(key: string, hash: string): boolean {
  const a = Buffer.from(hashKey(key), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

const notFound = () =>
  new AppError(404, 'WAITLIST_ENTRY_NOT_FOUND', 'No such entry on the waitlist.');

const dayPassed = () =>
  new AppError(
    409,
    'WAITLIST_DAY_PASSED',
    'This day has passed (or its last slot has begun): pick another day.',
  );

/**
 * Joining and leaving the waitlist of a full day (decision 023). Joining sends no SMS: the
 * only message an entry ever gets is the offer of a freed seat (waitlist-offers.ts).
 */
export class WaitlistService {
  constructor(
    private readonly deps: {
      db: Kysely<DB>;
      clock: Clock;
      offers: WaitlistOffers;
      horizonDays: number;
    },
  ) {}

  /**
   * `countPhone` counts the join against the number's daily limit: called only for a join
   * that could succeed (a listed service, a full day ahead), so typing a stranger's number at
   * made-up services cannot lock them out of every waitlist.
   */
  async join(
    serviceId: string,
    input: { date: string; phone: string; locale?: 'en' | 'fr' | undefined },
    clientAddress: string,
    countPhone: () => Promise<void> = async () => {},
  ): Promise<{ status: 201; body: WaitlistJoinResponse }> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const { date, phone } = input;
    const day = await readDay(db, serviceId, date);
    if (!day?.listed || !day.active) {
      throw new AppError(404, 'SERVICE_NOT_FOUND', 'No such service.');
    }
    this.assertDayAhead(day, date, now);
    // Checked again under the day's lock below; here, before the number is counted.
    await this.assertDayFull(db, day, date, now);
    await countPhone();
    const key = randomBytes(24).toString('base64url');
    try {
      return await db.transaction().execute(async (trx) => {
        // Number, then day: every join takes them in this order.
        await lockPhone(trx, phone);
        await lockDay(trx, serviceId, date);
        // Every check runs for a number already waiting as for a new one, in the same order,
        // so neither the answer nor its time says which it was.
        await this.assertDayFull(trx, day, date, now);
        if ((await countActive(trx, { phone })) >= MAX_ACTIVE_PER_PHONE) {
          throw new AppError(
            429,
            'TOO_MANY_WAITLIST_ENTRIES',
            `A number may wait for ${MAX_ACTIVE_PER_PHONE} days at most at once.`,
          );
        }
        if ((await countActive(trx, { serviceId, date })) >= MAX_PER_DAY) {
          throw new AppError(409, 'WAITLIST_FULL', 'The waitlist of this day is full.');
        }
        // The same number again is answered as a first join (decision 124): a hospital's list
        // is health data. It gets an entry of its own, ended at once (`withdrawn`): its id and
        // key answer a withdraw as a new entry's do, yet take nothing off the list; only the
        // first join's key takes the number off. The number keeps its place in line.
        const repeat = Boolean(await findActiveEntry(trx, serviceId, date, phone));
        const entry = await trx
          .insertInto('waitlist_entries')
          .values({
            organization_id: day.organization_id,
            service_id: serviceId,
            booking_date: date,
            phone,
            locale: input.locale ?? 'fr',
            client_address: clientAddress.slice(0, 100),
            withdraw_key_hash: hashKey(key),
            ...(repeat ? { state: 'withdrawn' as const, ended_at: now } : {}),
            created_at: now,
            updated_at: now,
          })
          .returning(['id'])
          .executeTakeFirstOrThrow();
        return {
          status: 201 as const,
          body: {
            // No place in line: any place, new or repeated, would tell a number that waits
            // from one that does not (the next join's place would show it). The number waits
            // either way, which is what `state` says.
            entry: {
              entry_id: entry.id,
              service_id: serviceId,
              date,
              state: 'waiting' as const,
              position: null,
            },
            already_waiting: false,
            withdraw_key: key,
            offer_minutes: day.waitlist_hold_minutes,
          },
        };
      });
    } catch (error) {
      // Cannot happen under the locks; should anything bypass them, the index answers.
      if (isUniqueViolation(error, 'waitlist_entries_active_uq')) {
        throw new AppError(409, 'WAITLIST_FULL', 'The list changed meanwhile: try again.');
      }
      throw error;
    }
  }

  /** Takes an entry off the list with its key; an offer it held goes to the next in line. */
  async withdraw(serviceId: string, entryId: string, key: string): Promise<WaitlistEntry> {
    const { db, clock, offers } = this.deps;
    const now = clock.now();
    const found = await findEntry(db, entryId);
    if (!found || found.service_id !== serviceId || !keyMatches(key, found.withdraw_key_hash)) {
      throw notFound();
    }
    return db.transaction().execute(async (trx) => {
      await lockDay(trx, serviceId, found.booking_date);
      await trx
        .updateTable('waitlist_entries')
        .set({ state: 'withdrawn', ended_at: now, updated_at: now })
        .where('id', '=', entryId)
        .where('state', 'in', ['waiting', 'offered'])
        .execute();
      await offers.settleDay(trx, serviceId, found.booking_date, now);
      const entry = await findEntry(trx, entryId);
      if (!entry) throw notFound();
      return present(trx, entry);
    });
  }

  /** Where an offer's short link leads: the slots page on the day (and the offered slot). */
  async linkTarget(entryId: string): Promise<WaitlistEntryRow | undefined> {
    return findEntry(this.deps.db, entryId);
  }

  private assertDayAhead(day: WaitlistDay, date: string, now: Date): void {
    const today = day.today(now);
    if (date < today) throw dayPassed();
    const { horizonDays } = this.deps;
    if (daysBetween(today, date) > horizonDays) {
      throw new AppError(
        400,
        'DATE_OUT_OF_HORIZON',
        `Bookings open ${horizonDays} days ahead at most.`,
      );
    }
    if (!day.open) {
      throw new AppError(
        409,
        'DAY_CLOSED',
        `${day.organization_name} is closed on this day. Pick another day.`,
      );
    }
  }

  /** Every seat of every slot still ahead is held or booked; else it can be booked now. */
  private async assertDayFull(trx: Db, day: WaitlistDay, date: string, now: Date): Promise<void> {
    const ahead = (await readSlots(trx, day, date, now)).filter(
      (slot) => slot.startsAt.getTime() > now.getTime(),
    );
    if (ahead.length === 0) throw dayPassed();
    if (ahead.some((slot) => slot.taken < slot.capacity)) {
      throw new AppError(
        409,
        'WAITLIST_DAY_NOT_FULL',
        'A slot of this day is still free: book it instead.',
      );
    }
  }
}

async function present(db: Db, row: WaitlistEntryRow): Promise<WaitlistEntry> {
  return {
    entry_id: row.id,
    service_id: row.service_id,
    date: row.booking_date,
    state: row.state as WaitlistStateName,
    position: await positionOf(db, row),
  };
}
