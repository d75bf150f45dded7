import type { CheckinBooking, TodayResponse } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { checkedInLocally, decideOffline } from './offline-rules';
import { outcomeMessage } from './outcome';

const ORG = '5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
const booking = (over: Partial<CheckinBooking>): CheckinBooking => ({
  booking_id: '0f6a1c3e-8f1b-4c8e-9b1d-2d3c4e5f6a7b',
  ticket_code: 'QL-7K4M-2QAB-XC9D',
  cus_name: 'Ngono Marie',
  service_name: 'Counter 15',
  service_name_fr: null,
  date: '2026-03-04',
  time: '10:00',
  status: 'confirmed',
  checked_in_at: null,
  checked_in_time: null,
  ...over,
});
const cache = (bookings: CheckinBooking[]): TodayResponse => ({
  organization: { organization_id: ORG, name: 'Guichet Unique', time_zone: 'Africa/Douala' },
  date: '2026-03-04',
  server_time: '2026-03-04T08:30:00.000Z',
  bookings,
  keys: [],
});
/** 09:30 in Douala on the cached day. */
const NOW = new Date('2026-03-04T08:30:00Z');
const token = (
  over: Partial<{
    bookingId: string;
    code: string;
    date: string;
    organizationId: string | null;
  }> = {},
) => ({
  kind: 'token' as const,
  bookingId: '0f6a1c3e-8f1b-4c8e-9b1d-2d3c4e5f6a7b',
  code: 'QL-7K4M-2QAB-XC9D',
  date: '2026-03-04',
  organizationId: ORG,
  ...over,
});

describe('decideOffline', () => {
  it('lets in the token of a booking rescheduled to today, whatever day the token names', () => {
    const list = cache([booking({})]);
    // The customer's QR was issued for 6 March; the booking was moved to today.
    expect(decideOffline(list, token({ date: '2026-03-06' }), NOW)).toMatchObject({ ok: true });
    // A token of a booking that is not in today's list is for its own day.
    expect(
      decideOffline(list, token({ bookingId: 'moved-away', date: '2026-03-06' }), NOW),
    ).toMatchObject({ ok: false, outcome: { reason: 'NOT_TODAY', date: '2026-03-06' } });
  });

  it('lets a confirmed booking of the cached day in, by token or by code', () => {
    const list = cache([booking({})]);
    expect(decideOffline(list, token(), NOW)).toMatchObject({ ok: true });
    expect(decideOffline(list, { kind: 'code', code: 'QL-7K4M-2QAB-XC9D' }, NOW)).toMatchObject({
      ok: true,
    });
  });

  it('refuses as the server would: organization, day, unknown, state', () => {
    const list = cache([
      booking({}),
      booking({
        booking_id: 'b2',
        ticket_code: 'QL-2222-3333-4444',
        status: 'checked_in',
        checked_in_time: '09:58',
      }),
    ]);
    const reason = (d: ReturnType<typeof decideOffline>) =>
      d.ok ? 'OK' : d.outcome.kind === 'refused' ? d.outcome.reason : d.outcome.kind;
    expect(reason(decideOffline(list, token({ organizationId: 'another' }), NOW))).toBe(
      'WRONG_ORGANIZATION',
    );
    // A booking of tomorrow is not in today's list.
    const tomorrow = decideOffline(
      list,
      token({ bookingId: 'b-tomorrow', code: 'QL-5555-6666-7777', date: '2026-03-05' }),
      NOW,
    );
    expect(tomorrow).toMatchObject({
      ok: false,
      outcome: { reason: 'NOT_TODAY', date: '2026-03-05' },
    });
    expect(reason(decideOffline(list, token({ code: 'QL-9999-9999-9999' }), NOW))).toBe(
      'UNKNOWN_TICKET',
    );
    expect(reason(decideOffline(list, { kind: 'code', code: 'QL-9999-9999-9999' }, NOW))).toBe(
      'UNKNOWN_TICKET',
    );
    const again = decideOffline(list, { kind: 'code', code: 'QL-2222-3333-4444' }, NOW);
    expect(again).toMatchObject({
      ok: false,
      outcome: { reason: 'ALREADY_CHECKED_IN', time: '09:58' },
    });
    for (const [status, expected] of [
      ['held', 'BOOKING_HELD'],
      ['cancelled', 'BOOKING_CANCELLED'],
      ['no_show', 'BOOKING_NO_SHOW'],
    ] as const) {
      expect(reason(decideOffline(cache([booking({ status })]), token(), NOW)), status).toBe(
        expected,
      );
    }
  });

  it('will not use a list of another day, or none', () => {
    const nextMorning = new Date('2026-03-05T06:00:00Z');
    expect(decideOffline(cache([booking({})]), token(), nextMorning)).toEqual({
      ok: false,
      outcome: { kind: 'stale_list' },
    });
    expect(decideOffline(null, token(), NOW)).toEqual({ ok: false, outcome: { kind: 'no_list' } });
  });

  it('marks a booking checked in at the device’s time, in the organization’s zone', () => {
    expect(checkedInLocally(booking({}), 'Africa/Douala', NOW)).toMatchObject({
      status: 'checked_in',
      checked_in_at: '2026-03-04T08:30:00.000Z',
      checked_in_time: '09:30',
    });
  });
});

describe('outcomeMessage', () => {
  it('says each outcome with its time or date', () => {
    expect(outcomeMessage({ kind: 'checked_in', booking: null, queued: false })).toEqual({
      key: 'checkin.result.checkedIn',
      tone: 'success',
    });
    expect(outcomeMessage({ kind: 'checked_in', booking: null, queued: true }).key).toBe(
      'checkin.result.queued',
    );
    expect(
      outcomeMessage({
        kind: 'refused',
        reason: 'ALREADY_CHECKED_IN',
        time: '09:58',
        date: null,
        booking: null,
      }),
    ).toEqual({ key: 'checkin.result.ALREADY_CHECKED_IN', time: '09:58', tone: 'info' });
    expect(
      outcomeMessage({
        kind: 'refused',
        reason: 'NOT_TODAY',
        time: null,
        date: '2026-03-05',
        booking: null,
      }),
    ).toEqual({ key: 'checkin.result.NOT_TODAY', date: '2026-03-05', tone: 'error' });
    expect(outcomeMessage({ kind: 'invalid_code' }).key).toBe('checkin.result.invalidCode');
  });
});
