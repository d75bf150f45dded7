import { beforeAll, describe, expect, it } from 'vitest';
import type {
  Bookable,
  BookingsService,
  Customer,
} from '../../src/modules/bookings/bookings.service.js';
import { TICKET_CODE_PATTERN } from '../../src/modules/tickets/ticket-code.js';
import { useStack } from '../support/app-fixture.js';
import { initiateBody } from '../support/fixtures.js';

const customer: Customer = {
  cus_name: 'Ngono Marie',
  cus_email: 'ngono.marie@example.com',
  phone_number: '+237677123456',
};

/** The pinned clock reads Wednesday 4 March 2026, 09:30 in Douala; slot k starts 07:00 + 15k. */
const TODAY = '2026-03-04';
const SLOT_0930 = 10;
const SLOT_0945 = 11;

describe('bookings service', () => {
  const s = useStack();
  let bookings: BookingsService;
  /** Each test books its own day so tests never share a slot-date. */
  let day = 4;
  const nextDate = () => {
    day += 1;
    return `2026-03-${String(day).padStart(2, '0')}`;
  };

  beforeAll(async () => {
    bookings = s.app.payments.bookings;
  });

  const bookable = (date: string, slotIndex = 0) =>
    bookings.findBookable(
      { serviceId: s.fx.serviceId, slotId: s.fx.slotIds[slotIndex] ?? '', date },
      s.clock.now(),
    );
  const hold = (b: Bookable, now = s.clock.now()) =>
    s.database.db.transaction().execute((trx) => bookings.placeHold(trx, b, customer, now));
  const booking = (id: string) =>
    s.database.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const lapse = (id: string, at: Date) =>
    s.database.db
      .updateTable('bookings')
      .set({ status: 'expired', hold_expires_at: at })
      .where('id', '=', id)
      .execute();

  describe('findBookable', () => {
    it('returns the service, its organization, the slot and the date', async () => {
      const date = nextDate();
      const b = await bookable(date, 3);
      expect(b.slotId).toBe(s.fx.slotIds[3]);
      expect(b.date).toBe(date);
      expect(b.service.id).toBe(s.fx.serviceId);
      expect(b.organization.id).toBe(s.fx.orgId);
      expect(b.organization.time_zone).toBe('Africa/Douala');
    });

    it('refuses an unknown service, an unknown or retired slot, a slot of another service', async () => {
      const date = nextDate();
      const unknownId = '00000000-0000-4000-8000-000000000000';
      const find = (serviceId: string, slotId: string) =>
        bookings.findBookable({ serviceId, slotId, date }, s.clock.now());
      await expect(find(unknownId, s.fx.slotIds[0] ?? '')).rejects.toMatchObject({
        status: 404,
        code: 'SERVICE_NOT_FOUND',
        message: 'No such service.',
      });
      await expect(find(s.fx.serviceId, unknownId)).rejects.toMatchObject({
        status: 404,
        code: 'SLOT_NOT_FOUND',
        message: 'This time slot no longer exists. Pick another one.',
      });
      await expect(find(s.fx.serviceId, s.fx.otherSlotId)).rejects.toMatchObject({
        status: 400,
        code: 'SLOT_NOT_IN_SERVICE',
        message: 'This time slot belongs to another service.',
      });
      const retired = s.fx.slotIds.at(-1) ?? '';
      await s.database.db
        .updateTable('slots')
        .set({ retired_at: s.clock.now() })
        .where('id', '=', retired)
        .execute();
      try {
        await expect(find(s.fx.serviceId, retired)).rejects.toMatchObject({
          status: 404,
          code: 'SLOT_NOT_FOUND',
        });
      } finally {
        await s.database.db
          .updateTable('slots')
          .set({ retired_at: null })
          .where('id', '=', retired)
          .execute();
      }
    });

    it('refuses a slot that has started today, accepts the next one', async () => {
      await expect(bookable(TODAY, SLOT_0930)).rejects.toMatchObject({
        status: 400,
        code: 'SLOT_IN_PAST',
        message: 'This time slot has already started. Pick a later one.',
      });
      await expect(bookable('2026-03-03', 40)).rejects.toMatchObject({ code: 'SLOT_IN_PAST' });
      expect((await bookable(TODAY, SLOT_0945)).slotId).toBe(s.fx.slotIds[SLOT_0945]);
    });

    it('accepts the last day of the 60-day horizon and refuses the day after', async () => {
      expect((await bookable('2026-05-03')).date).toBe('2026-05-03');
      await expect(bookable('2026-05-04')).rejects.toMatchObject({
        status: 400,
        code: 'DATE_OUT_OF_HORIZON',
        message: 'Bookings open 60 days ahead at most.',
      });
    });
  });

  describe('readForInitiations', () => {
    /** Starts a payment through the API; its reference is then known. */
    const paidReference = async (overrides: Record<string, unknown>) => {
      const body = initiateBody(s.fx, overrides);
      const paid = await s.app.inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        payload: body,
      });
      expect(paid.statusCode).toBe(201);
      return String(body.reference);
    };

    it('tells each waiting initiation, from one read, whether others fill the slot and its reference is known', async () => {
      const date = nextDate();
      const slot = { serviceId: s.fx.serviceId, slotId: s.fx.slotIds[3] ?? '', date };
      // A payment whose reference is known, on another slot.
      const known = await paidReference({ date, slotIndex: 4, phone_number: '+237677000001' });
      const initiations = [
        { phone: customer.phone_number, reference: 'own-hold-new-start' },
        { phone: '+237677000002', reference: 'someone-else' },
        { phone: '+237677000002', reference: known },
      ];
      const before = await bookings.readForInitiations(slot, initiations, s.clock.now());
      expect(before.map((v) => [v.takenByOthers, v.seatsFree, v.knownReference])).toEqual([
        [false, 1, false],
        [false, 1, false],
        [false, 1, true],
      ]);
      await hold(await bookable(date, 3));
      const after = await bookings.readForInitiations(slot, initiations, s.clock.now());
      // The customer's own live hold is theirs: their new initiation replaces it.
      expect(after.map((v) => [v.takenByOthers, v.seatsFree, v.knownReference])).toEqual([
        [false, 0, false],
        [true, 0, false],
        [true, 0, true],
      ]);
      expect(after[0]?.bookable()).toMatchObject({ slotId: slot.slotId, date });
      // Once the hold has lapsed, its seat counts as free.
      const lapsed = await bookings.readForInitiations(
        slot,
        initiations,
        new Date(s.clock.now().getTime() + 24 * 60 * 60_000),
      );
      expect(lapsed.map((v) => v.seatsFree)).toEqual([1, 1, 1]);
    });

    it('reads the references apart for a service that is not listed, and throws its 404 on use', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      const known = await paidReference({ date: nextDate(), phone_number: '+237677000003' });
      const views = await bookings.readForInitiations(
        { serviceId: unknown, slotId: s.fx.slotIds[0] ?? '', date: nextDate() },
        [
          { phone: '+237677000004', reference: known },
          { phone: '+237677000004', reference: 'never-seen' },
        ],
        s.clock.now(),
      );
      expect(views.map((v) => [v.takenByOthers, v.knownReference])).toEqual([
        [false, true],
        [false, false],
      ]);
      expect(() => views[1]?.bookable()).toThrow(
        expect.objectContaining({ status: 404, code: 'SERVICE_NOT_FOUND' }),
      );
    });
  });

  describe('placeHold', () => {
    it('holds the lowest free seat until now + the hold minutes', async () => {
      const date = nextDate();
      const now = s.clock.now();
      const { bookingId, holdExpiresAt } = await hold(await bookable(date, 2));
      expect(holdExpiresAt.toISOString()).toBe('2026-03-04T08:40:00.000Z');
      expect(await booking(bookingId)).toMatchObject({
        status: 'held',
        organization_id: s.fx.orgId,
        service_id: s.fx.serviceId,
        slot_id: s.fx.slotIds[2],
        booking_date: date,
        seat: 1,
        hold_expires_at: holdExpiresAt,
        created_at: now,
        ...customer,
      });
    });

    it('refuses a full slot-date with 409 SLOT_TAKEN', async () => {
      const b = await bookable(nextDate());
      await hold(b);
      await expect(hold(b)).rejects.toMatchObject({
        status: 409,
        code: 'SLOT_TAKEN',
        message: 'Someone has just booked this slot. Please pick another one.',
      });
    });

    it('expires a lapsed hold on the slot-date first, and takes its seat', async () => {
      const date = nextDate();
      const b = await bookable(date);
      const first = await hold(b);
      const elsewhere = await hold(await bookable(date, 1));
      const later = new Date(first.holdExpiresAt.getTime());
      const second = await hold(b, later);
      // Only this slot-date's holds are swept; the sweeper does the others.
      expect((await booking(elsewhere.bookingId)).status).toBe('held');
      expect(await booking(first.bookingId)).toMatchObject({
        status: 'expired',
        updated_at: later,
      });
      expect(await booking(second.bookingId)).toMatchObject({ status: 'held', seat: 1 });
    });

    it('gives seat 2 when seat 1 is held and the service has two seats', async () => {
      const date = nextDate();
      await s.database.db
        .updateTable('services')
        .set({ capacity: 2 })
        .where('id', '=', s.fx.serviceId)
        .execute();
      try {
        const b = await bookable(date);
        const first = await hold(b);
        const second = await hold(b);
        expect((await booking(first.bookingId)).seat).toBe(1);
        expect((await booking(second.bookingId)).seat).toBe(2);
        await expect(hold(b)).rejects.toMatchObject({ code: 'SLOT_TAKEN' });
      } finally {
        await s.database.db
          .updateTable('services')
          .set({ capacity: 1 })
          .where('id', '=', s.fx.serviceId)
          .execute();
      }
    });
  });

  describe('confirm, cancelHold, lapseStaleHolds, holdExpiry', () => {
    const confirm = (id: string, now: Date) =>
      s.database.db.transaction().execute((trx) => bookings.confirm(trx, id, now));

    it('confirms a held booking with a ticket on the same seat', async () => {
      const { bookingId } = await hold(await bookable(nextDate()));
      const at = new Date('2026-03-04T08:35:00Z');
      expect(await confirm(bookingId, at)).toBe('confirmed');
      const row = await booking(bookingId);
      expect(row).toMatchObject({ status: 'confirmed', seat: 1, confirmed_at: at, updated_at: at });
      expect(row.ticket_code).toMatch(TICKET_CODE_PATTERN);
    });

    it('confirms a lapsed hold on the lowest seat still free', async () => {
      const date = nextDate();
      await s.database.db
        .updateTable('services')
        .set({ capacity: 2 })
        .where('id', '=', s.fx.serviceId)
        .execute();
      try {
        const b = await bookable(date);
        const first = await hold(b);
        await lapse(first.bookingId, s.clock.now());
        const other = await hold(b);
        expect((await booking(other.bookingId)).seat).toBe(1);
        const at = new Date('2026-03-04T08:50:00Z');
        expect(await confirm(first.bookingId, at)).toBe('confirmed_after_hold_lapsed');
        const row = await booking(first.bookingId);
        expect(row).toMatchObject({ status: 'confirmed', seat: 2, confirmed_at: at });
        expect(row.ticket_code).toMatch(TICKET_CODE_PATTERN);
      } finally {
        await s.database.db
          .updateTable('services')
          .set({ capacity: 1 })
          .where('id', '=', s.fx.serviceId)
          .execute();
      }
    });

    it('leaves a lapsed hold alone when its slot has filled up: no_seat', async () => {
      const b = await bookable(nextDate());
      const first = await hold(b);
      await lapse(first.bookingId, s.clock.now());
      const taker = await hold(b);
      expect(await confirm(first.bookingId, s.clock.now())).toBe('no_seat');
      expect(await booking(first.bookingId)).toMatchObject({
        status: 'expired',
        ticket_code: null,
        confirmed_at: null,
      });
      expect((await booking(taker.bookingId)).status).toBe('held');
    });

    it('cancels a hold and leaves a confirmed booking alone', async () => {
      const held = await hold(await bookable(nextDate()));
      const at = new Date('2026-03-04T08:33:00Z');
      await s.database.db
        .transaction()
        .execute((trx) => bookings.cancelHold(trx, held.bookingId, at));
      expect(await booking(held.bookingId)).toMatchObject({ status: 'cancelled', updated_at: at });

      const paid = await hold(await bookable(nextDate()));
      await confirm(paid.bookingId, s.clock.now());
      await s.database.db
        .transaction()
        .execute((trx) => bookings.cancelHold(trx, paid.bookingId, at));
      expect((await booking(paid.bookingId)).status).toBe('confirmed');
    });

    it('lapses at most `limit` stale holds, counts them, and leaves live holds', async () => {
      const date = nextDate();
      const stale = [];
      for (const slotIndex of [20, 21, 22]) stale.push(await hold(await bookable(date, slotIndex)));
      const live = await hold(await bookable(date, 23), new Date('2026-03-04T09:00:00Z'));
      const after = new Date('2026-03-04T08:45:00Z');
      expect(await bookings.lapseStaleHolds(after, 1)).toBe(1);
      // Holds left by the tests above are stale too: the rest go in one sweep.
      expect(await bookings.lapseStaleHolds(after, 1000)).toBeGreaterThanOrEqual(2);
      expect(await bookings.lapseStaleHolds(after, 1000)).toBe(0);
      for (const h of stale) {
        expect(await booking(h.bookingId)).toMatchObject({ status: 'expired', updated_at: after });
      }
      expect((await booking(live.bookingId)).status).toBe('held');
    });

    it('reads a hold expiry, null for an unknown booking', async () => {
      const { bookingId, holdExpiresAt } = await hold(await bookable(nextDate()));
      expect(await bookings.holdExpiry(bookingId)).toEqual(holdExpiresAt);
      expect(await bookings.holdExpiry('00000000-0000-4000-8000-000000000000')).toBeNull();
    });
  });
});
