import { dayOfWeek, daysBetween, isSlotInPast, zonedNow } from '@qless/contract';
import type { Kysely } from 'kysely';
import { ticketLinkCode } from '../../core/access/ticket-links.js';
import { isOpenOn } from '../../core/organizations.repository.js';
import type { DB, Db } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import { AppError } from '../../errors.js';
import { queueBookingMessages } from '../messages/messages.module.js';
import { generateTicketCode } from '../tickets/tickets.module.js';
import { type BookableRead, findKnownReferences, readBookable } from './bookable.repository.js';
import {
  cancelHeld,
  expireStaleHolds,
  findFreeSeat,
  findHoldExpiry,
  insertHold,
  lockBookingForUpdate,
  lockSlot,
  markConfirmed,
  ticketCodeExists,
} from './bookings.repository.js';

export interface BookingsConfig {
  holdMinutes: number;
  horizonDays: number;
}

/** A slot of a service on a date that may be booked now (what holding a seat on it uses). */
export interface Bookable {
  service: BookableRead['service'];
  organization: BookableRead['organization'];
  slotId: string;
  date: string;
}

/** What one read told a payment initiation (see readForInitiations). */
export interface InitiationView {
  bookable: () => Bookable;
  takenByOthers: boolean;
  /** Seats of the slot-date no live booking takes. */
  seatsFree: number;
  knownReference: boolean;
}

export interface Customer {
  cus_name: string;
  cus_email: string;
  phone_number: string;
  /** The address the hold was placed from; holds are limited per address. */
  client_address?: string;
  /** The language of messages about this booking (default en). */
  locale?: 'en' | 'fr';
}

/**
 * What confirming a paid hold did; `no_seat`: the hold lapsed and the slot filled up;
 * `cancelled`: the organization cancelled it at the counter while it was being paid.
 */
export type BookingConfirmation =
  | 'confirmed'
  | 'confirmed_after_hold_lapsed'
  | 'no_seat'
  | 'cancelled';

export function slotTaken(): AppError {
  return new AppError(
    409,
    'SLOT_TAKEN',
    'Someone has just booked this slot. Please pick another one.',
  );
}

/**
 * The booking lifecycle: a hold on a seat of a slot-date, then confirmed, cancelled or
 * expired. The seat invariant lives in the database (slot row lock + partial unique index);
 * every method that writes takes the transaction of its caller.
 */
export class BookingsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: BookingsConfig,
  ) {}

  /** Checks that the slot belongs to the service and may still be booked on the date. */
  async findBookable(
    input: { serviceId: string; slotId: string; date: string },
    now: Date,
  ): Promise<Bookable> {
    return this.checkBookable(await readBookable(this.db, input, now), input, now);
  }

  /**
   * What each of several payment initiations on one slot-date needs, in one read without
   * locks: the slot checked as findBookable checks it (`bookable()`
   * throws what findBookable would), whether every seat is taken by someone else, how many
   * seats are free, and whether a payment carries the initiation's reference already. A
   * lapsed hold counts as free, a live hold of the initiation's number as its own (its new
   * initiation replaces it); only the check under the slot's lock decides who gets a seat.
   */
  async readForInitiations(
    slot: { serviceId: string; slotId: string; date: string },
    initiations: readonly { phone: string; reference: string }[],
    now: Date,
  ): Promise<InitiationView[]> {
    const references = initiations.map((initiation) => initiation.reference);
    const read = await readBookable(
      this.db,
      { ...slot, phones: initiations.map((initiation) => initiation.phone), references },
      now,
    );
    // No row (the service is not listed): the references are read apart, so that a replay
    // still answers with its payment and the others are refused together.
    const known = read ? read.knownReferences : await findKnownReferences(this.db, references);
    const bookable = () => this.checkBookable(read, slot, now);
    const seatsFree = read ? Math.max(0, read.service.capacity - read.taken) : 0;
    return initiations.map((initiation) => ({
      bookable,
      takenByOthers: read ? seatsFree === 0 && !read.holdingPhones.has(initiation.phone) : false,
      seatsFree,
      knownReference: known.has(initiation.reference),
    }));
  }

  private checkBookable(
    read: BookableRead | undefined,
    input: { serviceId: string; slotId: string; date: string },
    now: Date,
  ): Bookable {
    if (!read) throw new AppError(404, 'SERVICE_NOT_FOUND', 'No such service.');
    const { service, organization, slot } = read;
    if (!slot || slot.retired_at !== null) {
      throw new AppError(
        404,
        'SLOT_NOT_FOUND',
        'This time slot no longer exists. Pick another one.',
      );
    }
    if (slot.service_id !== service.id) {
      throw new AppError(400, 'SLOT_NOT_IN_SERVICE', 'This time slot belongs to another service.');
    }
    const tz = organization.time_zone;
    if (isSlotInPast(input.date, timeToMinutes(slot.start_time), tz, now)) {
      throw new AppError(
        400,
        'SLOT_IN_PAST',
        'This time slot has already started. Pick a later one.',
      );
    }
    const { horizonDays } = this.config;
    if (daysBetween(zonedNow(tz, now).date, input.date) > horizonDays) {
      throw new AppError(
        400,
        'DATE_OUT_OF_HORIZON',
        `Bookings open ${horizonDays} days ahead at most.`,
      );
    }
    if (!isOpenOn(organization.open_days, dayOfWeek(input.date)) || read.closed) {
      throw new AppError(
        409,
        'DAY_CLOSED',
        `${organization.name} is closed on this day. Pick another day.`,
      );
    }
    return { service, organization, slotId: slot.id, date: input.date };
  }

  /**
   * Takes the lowest free seat for the customer until the hold expires. Lapsed holds on the
   * slot-date are expired first so they do not block it. Throws SLOT_TAKEN when full.
   */
  async placeHold(
    trx: Db,
    bookable: Bookable,
    customer: Customer,
    now: Date,
  ): Promise<{ bookingId: string; holdExpiresAt: Date }> {
    const { service, organization, slotId, date } = bookable;
    await lockSlot(trx, slotId);
    await expireStaleHolds(trx, now, { slotId, date });
    const seat = await findFreeSeat(trx, slotId, date, service.capacity);
    if (seat === null) throw slotTaken();
    const holdExpiresAt = new Date(now.getTime() + this.config.holdMinutes * 60_000);
    const bookingId = await insertHold(
      trx,
      {
        organization_id: organization.id,
        service_id: service.id,
        slot_id: slotId,
        booking_date: date,
        seat,
        hold_expires_at: holdExpiresAt,
        ...customer,
      },
      now,
    );
    return { bookingId, holdExpiresAt };
  }

  /**
   * The hold becomes a confirmed booking with a ticket. If the hold had already lapsed, a
   * seat is taken again when one is still free; otherwise nothing changes (`no_seat`).
   * The customer's confirmation messages are queued in the same transaction.
   */
  async confirm(trx: Db, bookingId: string, now: Date): Promise<BookingConfirmation> {
    const booking = await lockBookingForUpdate(trx, bookingId);
    // Cancelled on purpose: a payment that lands afterwards is refunded, not re-seated.
    if (booking.status === 'cancelled') return 'cancelled';
    let seat = booking.seat;
    if (booking.status !== 'held') {
      await lockSlot(trx, booking.slot_id);
      const free = await findFreeSeat(trx, booking.slot_id, booking.booking_date, booking.capacity);
      if (free === null) return 'no_seat';
      seat = free;
    }
    await markConfirmed(trx, booking.id, { seat, ticketCode: await newTicketCode(trx) }, now);
    // Its SMS short link, made here under the booking's lock (decision 141), so that later
    // messages only read it.
    await ticketLinkCode(trx, booking.id);
    await queueBookingMessages(trx, booking.id, 'confirmation', now);
    return booking.status === 'held' ? 'confirmed' : 'confirmed_after_hold_lapsed';
  }

  /** Releases a hold at once (its payment failed); other states are left alone. */
  cancelHold(trx: Db, bookingId: string, now: Date): Promise<void> {
    return cancelHeld(trx, bookingId, now);
  }

  /** Expires up to `limit` lapsed holds; safe in several processes (SKIP LOCKED). */
  lapseStaleHolds(now: Date, limit: number): Promise<number> {
    return this.db.transaction().execute((trx) => expireStaleHolds(trx, now, { limit }));
  }

  holdExpiry(bookingId: string): Promise<Date | null> {
    return findHoldExpiry(this.db, bookingId);
  }
}

/** A ticket code no booking has; the unique index is the last word should two race. */
async function newTicketCode(db: Db): Promise<string> {
  let code = generateTicketCode();
  for (let i = 0; i < 5 && (await ticketCodeExists(db, code)); i += 1) code = generateTicketCode();
  return code;
}
