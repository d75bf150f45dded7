import {
  addDays,
  BOOKING_KEY_HEADER,
  customerBookingResponseSchema,
  paymentResponseSchema,
} from '@qless/contract';
import { expect } from 'vitest';
import { initiateBody } from './fixtures.js';
import { useSimulatorApp } from './simulator-harness.js';

export interface Held {
  bookingId: string;
  paymentId: string;
  key: string;
  phone: string;
  date: string;
  slotId: string;
}
export interface Booked extends Held {
  code: string;
}

/** Minutes of the fixture's slots (07:00 + 15 min × index). */
export const slotIndexAt = (hhmm: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return (h * 60 + m - 7 * 60) / 15;
};

let phones = 0;
/** A mobile number of its own (never ending in 000 or 999: the simulator's special numbers). */
export function freshPhone(): string {
  phones += 1;
  return `+237677${String(100_000 + ((phones * 7) % 800_000) + 1).padStart(6, '0')}`;
}

/**
 * The simulator app of useSimulatorApp plus what a customer's device does: book (the
 * payment's answer carries the booking's access key), then read, cancel, reschedule, get the
 * key back from the ticket code, and cancel a pending payment.
 */
export function useSelfServiceApp(
  options: { env?: Record<string, string>; logStream?: { write(line: string): void } } = {},
) {
  const h = useSimulatorApp({
    ...options,
    // Sessions that outlive the days the clock is moved to.
    env: {
      SIMULATOR_DELAY_MS: '600000',
      SESSION_IDLE_MINUTES: '43200',
      SESSION_ABSOLUTE_HOURS: '2160',
      ...options.env,
    },
  });
  /** Each booking its own day by default (from 5 March 2026, within the 60-day horizon). */
  let days = 0;
  const nextDate = () => {
    days += 1;
    return addDays('2026-03-04', days);
  };
  /** Days to move bookings to, apart from nextDate's (from 10 April 2026). */
  let farDays = 0;
  const farDate = () => {
    farDays += 1;
    return addDays('2026-04-09', farDays);
  };
  const keyHeader = (key: string | undefined) =>
    key === undefined ? {} : { [BOOKING_KEY_HEADER]: key };

  async function hold(
    over: { date?: string; slotIndex?: number; phone?: string; serviceId?: string } = {},
  ): Promise<Held> {
    const phone = over.phone ?? freshPhone();
    const date = over.date ?? nextDate();
    const body = initiateBody(h.fx, {
      date,
      slotIndex: over.slotIndex ?? 12,
      phone_number: phone,
      ...(over.serviceId ? { service_id: over.serviceId, slot_id: h.fx.otherSlotId } : {}),
    });
    const res = await h.initiate(body);
    expect(res.statusCode, res.body).toBe(201);
    const { payment } = paymentResponseSchema.parse(res.json());
    return {
      bookingId: payment.booking_id,
      paymentId: payment.payment_id,
      key: payment.access_key,
      phone,
      date,
      slotId: String(body.slot_id),
    };
  }

  async function book(
    over: { date?: string; slotIndex?: number; phone?: string } = {},
  ): Promise<Booked> {
    const held = await hold(over);
    const settled = await h.callback(held.paymentId, 'SUCCESSFUL');
    expect(settled.json(), settled.body).toMatchObject({ outcome: 'confirmed' });
    const row = await h.database.db
      .selectFrom('bookings')
      .select('ticket_code')
      .where('id', '=', held.bookingId)
      .executeTakeFirstOrThrow();
    return { ...held, code: row.ticket_code ?? '' };
  }

  const api = {
    get: (bookingId: string, key?: string) =>
      h.app.inject({
        method: 'GET',
        url: `/api/v1/bookings/${bookingId}`,
        headers: keyHeader(key),
      }),
    cancel: (bookingId: string, key?: string) =>
      h.app.inject({
        method: 'POST',
        url: `/api/v1/bookings/${bookingId}/cancel`,
        headers: keyHeader(key),
      }),
    reschedule: (bookingId: string, key: string | undefined, body: Record<string, unknown>) =>
      h.app.inject({
        method: 'POST',
        url: `/api/v1/bookings/${bookingId}/reschedule`,
        headers: keyHeader(key),
        payload: body,
      }),
    access: (code: string, body: Record<string, unknown>, remoteAddress = '10.1.1.1') =>
      h.app.inject({
        method: 'POST',
        url: `/api/v1/tickets/${code}/access`,
        payload: body,
        remoteAddress,
      }),
    cancelPayment: (paymentId: string, key?: string) =>
      h.app.inject({
        method: 'POST',
        url: `/api/v1/payment/${paymentId}/cancel`,
        headers: keyHeader(key),
      }),
  };

  return {
    h,
    nextDate,
    farDate,
    hold,
    book,
    ...api,
    /** The booking as its customer sees it (asserts 200). */
    async view(b: Held) {
      const res = await api.get(b.bookingId, b.key);
      expect(res.statusCode, res.body).toBe(200);
      return customerBookingResponseSchema.parse(res.json()).booking;
    },
    /** The fixture organization's cut-off, in minutes. */
    async setCutoff(minutes: number) {
      await h.database.db
        .updateTable('organizations')
        .set({ change_cutoff_minutes: minutes })
        .where('id', '=', h.fx.orgId)
        .execute();
    },
    /** The rows a refused request must leave as they were. */
    async snapshot(): Promise<string> {
      const db = h.database.db;
      const [bookings, payments] = await Promise.all([
        db.selectFrom('bookings').selectAll().orderBy('id').execute(),
        db.selectFrom('payments').selectAll().orderBy('id').execute(),
      ]);
      return JSON.stringify({ bookings, payments });
    },
  };
}
