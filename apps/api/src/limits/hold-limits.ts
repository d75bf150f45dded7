import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from '../db/schema.js';
import { AppError } from '../errors.js';
import { LIMITS, maxOf, windowOf } from './declarations.js';

/** What a payment start asks to hold, as far as the limits are concerned. */
export interface HoldRequest {
  reference: string;
  phone: string;
  clientAddress: string;
  serviceId: string;
  slotId: string;
  date: string;
}

type HoldLimitName =
  | 'payment-starts-per-phone'
  | 'payment-prompts-per-phone'
  | 'holds-per-address'
  | 'holds-per-address-per-service';

function refuse(name: HoldLimitName): AppError {
  const { status, code, message } = LIMITS[name].refusal;
  return new AppError(status, code, message);
}

/**
 * The `live` limits of a payment start: different slot-dates started for one number from
 * one client address in the window, payment prompts sent to one number from anywhere in
 * the window, and seats the client address holds at once, in all and on one service (so one
 * client cannot hold a service's week). Counted from the payments and bookings as they are,
 * not from counters: a hold released is no longer counted.
 */
export function holdLimits(config: Config) {
  const perPhone = maxOf('payment-starts-per-phone', config);
  const windowMs = windowOf('payment-starts-per-phone', config);
  const promptsPerPhone = maxOf('payment-prompts-per-phone', config);
  const promptsWindowMs = windowOf('payment-prompts-per-phone', config);
  const holdsPerIp = maxOf('holds-per-address', config);
  const holdsPerIpPerService = maxOf('holds-per-address-per-service', config);

  /**
   * Starts this client made for this number in the window: a repeat of a slot-date already
   * counted is what the customer meant (a retry) and passes; starts from other addresses
   * are not this client's and do not count against it.
   */
  async function checkPhone(db: Db, request: HoldRequest, now: Date): Promise<void> {
    const since = new Date(now.getTime() - windowMs);
    const row = await db
      .selectFrom('payments as p')
      .innerJoin('bookings as b', 'b.id', 'p.booking_id')
      .select([
        sql<number>`count(distinct (b.slot_id, b.booking_date))`.as('started'),
        sql<boolean>`coalesce(bool_or(b.slot_id = ${request.slotId} and b.booking_date = ${request.date}::date), false)`.as(
          'repeat',
        ),
      ])
      .where('p.phone_number', '=', request.phone)
      .where('b.client_address', '=', request.clientAddress)
      .where('p.created_at', '>', since)
      .executeTakeFirstOrThrow();
    if (!row.repeat && Number(row.started) >= perPhone) throw refuse('payment-starts-per-phone');
  }

  /**
   * Payments started for this number in the window, from every address and on every slot:
   * each one sent an approval prompt to the phone (seen in a trial: one client sent 42 to a
   * stranger's phone). Exact under the phone's lock, which every start takes first. A
   * repeat of the number's pending start never gets here: it reuses that start's prompt.
   */
  async function checkPrompts(db: Db, request: HoldRequest, now: Date): Promise<void> {
    const row = await db
      .selectFrom('payments')
      .select(sql<number>`count(*)`.as('prompts'))
      .where('phone_number', '=', request.phone)
      .where('created_at', '>', new Date(now.getTime() - promptsWindowMs))
      .executeTakeFirstOrThrow();
    if (Number(row.prompts) >= promptsPerPhone) throw refuse('payment-prompts-per-phone');
  }

  return {
    /**
     * Every hold limit, in the hold's transaction under the phone's lock and `lockClient`,
     * before anything is written (a start refused changes nothing).
     */
    async admit(db: Db, request: HoldRequest, now: Date): Promise<void> {
      await checkPhone(db, request, now);
      await checkPrompts(db, request, now);
      const live = await liveHolds(db, request, now);
      if (live.all >= holdsPerIp) throw refuse('holds-per-address');
      if (live.onService >= holdsPerIpPerService) throw refuse('holds-per-address-per-service');
    },

    /** In the hold's transaction: starts from one client address take turns from here on. */
    async lockClient(trx: Db, clientAddress: string): Promise<void> {
      await sql`select pg_advisory_xact_lock(hashtext(${`client:${clientAddress}`}))`.execute(trx);
    },
  };
}

export type HoldLimits = ReturnType<typeof holdLimits>;

/** Live holds of the client; the number's own hold is being replaced and does not count. */
async function liveHolds(
  db: Db,
  { clientAddress, serviceId, phone }: HoldRequest,
  now: Date,
): Promise<{ all: number; onService: number }> {
  const row = await db
    .selectFrom('bookings')
    .select([
      sql<number>`count(*)`.as('all'),
      sql<number>`count(*) filter (where service_id = ${serviceId})`.as('on_service'),
    ])
    .where('client_address', '=', clientAddress)
    .where('phone_number', '<>', phone)
    .where('status', '=', 'held')
    .where('hold_expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return { all: Number(row.all), onService: Number(row.on_service) };
}
