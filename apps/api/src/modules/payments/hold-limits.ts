import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { DB, Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { FAILURE_CODES } from './failure-codes.js';
import type { PaymentStateMachine } from './payment-state-machine.js';

/** The failure code of a payment replaced by a newer start from the same number. */
export const SUPERSEDED = FAILURE_CODES.SUPERSEDED;

export interface HoldLimitsConfig {
  perPhone: number;
  windowMinutes: number;
  holdsPerIp: number;
  holdsPerIpPerService: number;
}

export interface HoldRequest {
  reference: string;
  phone: string;
  clientAddress: string;
  serviceId: string;
  slotId: string;
  date: string;
}

/**
 * Who may hold seats, and how many. A phone number has at most one pending payment: a new
 * start replaces the older one, so nobody can lock a customer's number by starting payments
 * with it. Holds per client address are capped in all and per service, so one client
 * cannot hold a service's week.
 */
export class HoldLimits {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly stateMachine: PaymentStateMachine,
    private readonly config: HoldLimitsConfig,
  ) {}

  /**
   * Before the hold's transaction: checks the limits (unlocked, so that a start refused
   * releases nothing), then fails the number's pending payments, their holds with them.
   * The same request replayed never gets here (idempotent reference).
   */
  async replaceEarlier(request: HoldRequest, now: Date): Promise<void> {
    await this.admit(this.db, request, now);
    for (const id of await pendingForPhone(this.db, request.phone, request.reference)) {
      await this.stateMachine.failPending(id, SUPERSEDED, {
        source: 'initiation',
        outcome: 'superseded',
        payload: { reason: 'a newer payment was started for this number' },
      });
    }
  }

  /** In the hold's transaction, after the phone lock: every limit again, now under locks. */
  async check(trx: Db, request: HoldRequest, now: Date): Promise<void> {
    // A start for this number that came between the release and the phone lock.
    if ((await pendingForPhone(trx, request.phone, request.reference)).length > 0) {
      throw new AppError(
        409,
        'PAYMENT_IN_PROGRESS',
        'Another payment for this number has just started. Approve or cancel it on the phone, then try again.',
      );
    }
    await sql`select pg_advisory_xact_lock(hashtext(${`client:${request.clientAddress}`}))`.execute(
      trx,
    );
    await this.admit(trx, request, now);
  }

  private async admit(db: Db, request: HoldRequest, now: Date): Promise<void> {
    await this.checkPhone(db, request, now);
    const { holdsPerIp, holdsPerIpPerService } = this.config;
    const live = await liveHolds(db, request, now);
    if (live.all >= holdsPerIp || live.onService >= holdsPerIpPerService) {
      throw new AppError(
        429,
        'TOO_MANY_HOLDS',
        'Too many bookings are waiting for payment from this connection. Finish or wait for one, then try again.',
      );
    }
  }

  /**
   * Distinct slot-dates this client started for this number in the window: a repeat of one
   * already counted is what the customer meant (a retry) and passes; starts from other
   * addresses are not this client's and do not count against it.
   */
  private async checkPhone(db: Db, request: HoldRequest, now: Date): Promise<void> {
    const { perPhone, windowMinutes } = this.config;
    const since = new Date(now.getTime() - windowMinutes * 60_000);
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
    if (!row.repeat && Number(row.started) >= perPhone) {
      throw new AppError(
        429,
        'RATE_LIMITED',
        'Too many payment requests for this number. Please wait a few minutes and try again.',
      );
    }
  }
}

async function pendingForPhone(db: Db, phone: string, exceptReference: string): Promise<string[]> {
  const rows = await db
    .selectFrom('payments')
    .select('id')
    .where('phone_number', '=', phone)
    .where('status', '=', 'PENDING')
    .where('reference', '<>', exceptReference)
    .execute();
  return rows.map((r) => r.id);
}

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
