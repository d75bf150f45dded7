import { timingSafeEqual } from 'node:crypto';
import type { CustomerBooking, TicketAccessResponse } from '@qless/contract';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { BookingAccess } from '../../core/access/booking-access.js';
import type { Clock } from '../../core/clock.js';
import type { DB, Db } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../errors.js';
import type { Limiter } from '../../limits/limiter.js';
import { queueBookingMessages, withdrawWhatsApp } from '../messages/messages.module.js';
import type { TicketSigner } from '../tickets/tickets.module.js';
import { assertCustomerMayChange, assertKeyHolder } from './booking-policy.js';
import { expireStaleHolds, findFreeSeat, lockSlot } from './bookings.repository.js';
import { type BookingsService, slotTaken } from './bookings.service.js';
import { toCustomerBooking } from './customer-booking.js';
import {
  type CustomerBookingRow,
  cancelByCustomer,
  findCustomerBooking,
  findCustomerBookingByCode,
  latestPaymentOf,
  lockCustomerBooking,
  moveBooking,
  setWhatsAppOptIn,
} from './self-service.repository.js';

export interface SelfServiceDeps {
  db: Kysely<DB>;
  clock: Clock;
  bookings: BookingsService;
  access: BookingAccess;
  signer: TicketSigner;
  limits: Limiter;
  /** Whether this site sends WhatsApp (decision 144): the customer may then ask for it. */
  whatsappEnabled?: boolean;
  /** Offers a seat this frees to the day's waitlist, in the same transaction (decision 023). */
  waitlist?: { settleDay(trx: Db, serviceId: string, date: string, now: Date): Promise<unknown> };
}

const notFound = () => new AppError(404, 'BOOKING_NOT_FOUND', 'No such booking.');

/** The last four digits of the booking's number, compared in constant time. */
function phoneEndsWith(phone: string, last4: string): boolean {
  const digits = phone.replace(/\D/g, '').slice(-4);
  const a = Buffer.from(digits.padStart(4, '-'));
  const b = Buffer.from(last4);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Customer self-service: a booking seen, cancelled or moved by whoever holds its
 * access key (see BookingAccess), and the key handed out again for a ticket code plus the
 * phone number's last four digits. Writes run in one transaction with the messages they
 * announce.
 */
export class SelfService {
  constructor(private readonly deps: SelfServiceDeps) {}

  /**
   * Refuses a missing or wrong key before the booking is even looked up: a caller without
   * the key learns nothing, not even whether the id exists.
   */
  authorize(bookingId: string, key: string | undefined): void {
    assertKeyHolder(this.deps.access, bookingId, key, 'booking');
  }

  async view(bookingId: string, key: string | undefined): Promise<CustomerBooking> {
    this.authorize(bookingId, key);
    const row = await findCustomerBooking(this.deps.db, bookingId);
    if (!row) throw notFound();
    return this.present(row);
  }

  private async present(row: CustomerBookingRow): Promise<CustomerBooking> {
    const { db, signer, clock } = this.deps;
    const booking = await toCustomerBooking(
      signer,
      row,
      await latestPaymentOf(db, row.booking_id),
      clock.now(),
    );
    // Offered where the site sends WhatsApp, to a booking with a number (not an erased one).
    return this.deps.whatsappEnabled && row.phone_number
      ? { ...booking, whatsapp_opt_in: row.whatsapp_opt_in_at !== null }
      : booking;
  }

  /**
   * The turn's messages by WhatsApp to the booking's number, or not (decision 144): while the
   * booking stands (confirmed or checked in) and has a number, where this site sends WhatsApp.
   * A visit already in line follows at once: taken back, its WhatsApp messages not yet sent
   * are skipped and their SMS sent now.
   */
  async setWhatsApp(bookingId: string, key: string | undefined, on: boolean) {
    this.authorize(bookingId, key);
    const { db, clock } = this.deps;
    if (!this.deps.whatsappEnabled) {
      throw new AppError(409, 'WHATSAPP_OFF', 'This site does not send WhatsApp messages.');
    }
    await db.transaction().execute(async (trx) => {
      const row = await lockCustomerBooking(trx, bookingId);
      if (!row) throw notFound();
      if ((row.status !== 'confirmed' && row.status !== 'checked_in') || !row.phone_number) {
        throw new AppError(409, 'WHATSAPP_NOT_FOLLOWED', 'Only a confirmed booking sends news.');
      }
      const now = clock.now();
      const visits = await setWhatsAppOptIn(trx, bookingId, on, now);
      if (!on) await withdrawWhatsApp(trx, visits, now);
    });
    return this.view(bookingId, key);
  }

  /**
   * Confirmed → cancelled by the customer, before the cut-off; the seat is free at once.
   * Cancelling again what the customer already cancelled answers the booking as it is.
   */
  async cancel(bookingId: string, key: string | undefined): Promise<CustomerBooking> {
    this.authorize(bookingId, key);
    const { db, clock } = this.deps;
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      const row = await lockCustomerBooking(trx, bookingId);
      if (!row) throw notFound();
      if (row.status === 'cancelled' && row.cancelled_by === 'customer') return;
      assertCustomerMayChange(row, now);
      // The row is locked: nothing can have moved it since it was read.
      if (!(await cancelByCustomer(trx, bookingId, now))) throw notFound();
      await queueBookingMessages(trx, bookingId, 'cancellation', now);
      await this.deps.waitlist?.settleDay(trx, row.service_id, row.booking_date, now);
    });
    return this.view(bookingId, key);
  }

  /**
   * Moves the booking (the same row: its code, key and payment stay) to another free slot
   * of its service, in one transaction: the new slot is locked as a hold locks it, so the
   * booking always has exactly one seat. The fee carries over.
   */
  async reschedule(
    bookingId: string,
    key: string | undefined,
    target: { slot_id: string; date: string },
  ): Promise<CustomerBooking> {
    this.authorize(bookingId, key);
    const { db, clock, bookings } = this.deps;
    const now = clock.now();
    const current = await findCustomerBooking(db, bookingId);
    if (!current) throw notFound();
    assertCustomerMayChange(current, now);
    assertMoves(current, target);
    const bookable = await bookings.findBookable(
      { serviceId: current.service_id, slotId: target.slot_id, date: target.date },
      now,
    );
    try {
      await db.transaction().execute(async (trx) => {
        // Slot, then booking: the order every writer of a slot's seats takes.
        await lockSlot(trx, bookable.slotId);
        const row = await lockCustomerBooking(trx, bookingId);
        if (!row) throw notFound();
        assertCustomerMayChange(row, now);
        assertMoves(row, target);
        await this.moveTo(trx, row, bookable, now);
        // The seat it moved away from is free: the waitlist of that day hears of it.
        await this.deps.waitlist?.settleDay(trx, row.service_id, row.booking_date, now);
      });
    } catch (error) {
      if (isUniqueViolation(error, 'bookings_active_seat_uq')) throw slotTaken();
      throw error;
    }
    return this.view(bookingId, key);
  }

  private async moveTo(
    trx: Db,
    row: CustomerBookingRow,
    to: { slotId: string; date: string; service: { capacity: number } },
    now: Date,
  ): Promise<void> {
    await expireStaleHolds(trx, now, { slotId: to.slotId, date: to.date });
    const seat = await findFreeSeat(trx, to.slotId, to.date, to.service.capacity);
    if (seat === null) throw slotTaken();
    const moved = await moveBooking(
      trx,
      {
        bookingId: row.booking_id,
        from: { slotId: row.slot_id, date: row.booking_date },
        to: { slotId: to.slotId, date: to.date, seat },
      },
      now,
    );
    if (!moved) throw notFound();
    await queueBookingMessages(trx, row.booking_id, 'reschedule', now);
  }

  /**
   * The access key of the booking with this ticket code, for the key of a link (checked
   * against the code's booking) or the phone number's last four digits. A wrong answer and
   * an unknown code answer the same 404.
   *
   * Phone digits (10,000 possibilities) are counted BEFORE they are checked, so guesses
   * sent in parallel cannot all pass: of N at once, at most the limit are ever compared.
   * Counted per code from one address (the real limit), and per code from everywhere: a
   * ceiling that, once spent, still lets a first try from an address reach the check, so
   * strangers' wrong digits cannot lock the owner out (decision 018).
   * A right answer gives back the code's counts only: were the address's given back too, a
   * right answer on one's own booking would reset the address's budget between guesses at
   * other codes. A key (256 bits, not guessable) is checked first and only a wrong one
   * counts, against the address: the customer who holds the link is never refused because
   * strangers behind the same carrier address spent a budget. An unknown code is counted
   * like a known one, so a 429 tells nothing about whether a code exists.
   */
  async accessByCode(
    reply: FastifyReply,
    request: { code: string; ip: string; key?: string | undefined; phone_last4?: string },
  ): Promise<TicketAccessResponse> {
    const { db, access } = this.deps;
    const notFound = () =>
      new AppError(
        404,
        'TICKET_NOT_FOUND',
        'No ticket matches this code and these details. Check the code and the last four digits of your phone number.',
      );
    if (request.key !== undefined) {
      const row = await findCustomerBookingByCode(db, request.code);
      if (!row || !access.verify(row.booking_id, request.key)) {
        await this.deps.limits.enforce(reply, [{ limit: 'ticket-access-tries', of: request.ip }]);
        throw notFound();
      }
      return { access_key: access.keyFor(row.booking_id), booking: await this.present(row) };
    }
    const reservation = await this.deps.limits.reserve(reply, [
      { limit: 'ticket-access-tries', of: request.ip },
      { limit: 'ticket-access-tries-per-code-address', of: request.code, from: request.ip },
      {
        limit: 'ticket-access-tries-per-code',
        of: request.code,
        passesFirstTryOf: 'ticket-access-tries-per-code-address',
      },
      {
        limit: 'ticket-access-tries-per-code-day',
        of: request.code,
        passesFirstTryOf: 'ticket-access-tries-per-code-address',
      },
    ]);
    const row = await findCustomerBookingByCode(db, request.code);
    if (!row || !phoneEndsWith(row.phone_number, request.phone_last4 ?? '')) throw notFound();
    await reservation.succeeded();
    return { access_key: access.keyFor(row.booking_id), booking: await this.present(row) };
  }
}

function assertMoves(row: CustomerBookingRow, target: { slot_id: string; date: string }): void {
  if (row.slot_id === target.slot_id && row.booking_date === target.date) {
    throw new AppError(409, 'SAME_SLOT', 'Your booking is already at this time. Pick another one.');
  }
}
