import type { CustomerBooking } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import type { DeviceBooking } from '../../../lib/device-bookings';
import { deviceEntryFor, orderDeviceBookings, stateOf } from './device-list';

// 10:00 in Douala (UTC+1) on 20 Nov 2026; the suite runs under UTC+14.
const NOW = new Date('2026-11-20T09:00:00Z');

function entry(id: string, patch: Partial<DeviceBooking> = {}): DeviceBooking {
  return {
    booking_id: id,
    payment_id: `pay-${id}`,
    access_key: `key-${id}-0123456789`,
    code: `QL-AAAA-BBBB-${id.toUpperCase().padEnd(4, 'C').slice(0, 4)}`,
    service_id: 'svc-1',
    slot_id: 'slot-1',
    organization: 'Bamenda Regional Hospital',
    service: 'Antenatal clinic',
    date: '2026-11-25',
    time: '09:00',
    hold_expires_at: '2026-11-20T09:05:00Z',
    state: 'confirmed',
    saved_at: '2026-11-19T08:00:00Z',
    ...patch,
  };
}

function fresh(id: string, patch: Partial<CustomerBooking> = {}): CustomerBooking {
  return {
    booking_id: id,
    code: 'QL-AAAA-BBBB-CCCC',
    status: 'confirmed',
    organization: {
      organization_id: 'org-1',
      name: 'Bamenda Regional Hospital',
      location: 'Up Station',
      city: 'Bamenda',
      time_zone: 'Africa/Douala',
    },
    service: {
      service_id: 'svc-1',
      service_name: 'Antenatal clinic',
      service_name_fr: 'Consultation prénatale',
      duration: 30,
    },
    slot_id: 'slot-2',
    date: '2026-11-27',
    time: '11:00',
    end_time: '11:30',
    starts_at: '2026-11-27T10:00:00Z',
    ends_at: '2026-11-27T10:30:00Z',
    customer_name: 'Ada Nkem',
    email: 'a***@example.cm',
    phone: '*****3456',
    locale: 'en',
    ticket: null,
    change_deadline: '2026-11-27T08:00:00Z',
    cutoff_minutes: 120,
    change_blocked: null,
    cancelled_by: null,
    rescheduled_from: null,
    payment: null,
    ...patch,
  };
}

const ids = (list: { entry: DeviceBooking }[]) => list.map((b) => b.entry.booking_id);

describe('orderDeviceBookings', () => {
  it('files a booking checked in today with a visit under Today, first, not under Past', () => {
    // NOW is 10:00 on 20 Nov in Douala; the booking was at 09:00 that day (begun).
    const today = { date: '2026-11-20', time: '09:00', starts_at: '2026-11-20T08:00:00Z' };
    const entries = [
      entry('inline', { date: '2026-11-20', time: '09:00', state: 'checked_in' }),
      entry('novisit', { date: '2026-11-20', time: '08:00', state: 'checked_in' }),
      entry('yesterday', { date: '2026-11-19', time: '09:00', state: 'checked_in' }),
      entry('soon', { date: '2026-11-21', time: '15:00' }),
    ];
    const answers = new Map<string, CustomerBooking>([
      ['inline', fresh('inline', { ...today, status: 'checked_in', visit_id: 'visit-1' })],
      ['novisit', fresh('novisit', { ...today, time: '08:00', status: 'checked_in' })],
      [
        'yesterday',
        fresh('yesterday', {
          date: '2026-11-19',
          time: '09:00',
          starts_at: '2026-11-19T08:00:00Z',
          status: 'checked_in',
          visit_id: 'visit-0',
        }),
      ],
    ]);
    const { today: now, upcoming, past } = orderDeviceBookings(entries, answers, NOW);
    expect(ids(now)).toEqual(['inline']);
    expect(ids(upcoming)).toEqual(['soon']);
    expect(ids(past)).toEqual(['novisit', 'yesterday']);
  });

  it('lists upcoming bookings soonest first, then the others latest first', () => {
    const entries = [
      entry('late', { date: '2026-12-01', time: '08:00' }),
      entry('past', { date: '2026-11-10', time: '09:00' }),
      entry('soon', { date: '2026-11-21', time: '15:00' }),
      entry('older', { date: '2026-10-01', time: '09:00' }),
      entry('sameday', { date: '2026-11-21', time: '08:30' }),
    ];
    const { upcoming, past } = orderDeviceBookings(entries, new Map(), NOW);
    expect(ids(upcoming)).toEqual(['sameday', 'soon', 'late']);
    expect(ids(past)).toEqual(['past', 'older']);
  });

  it('judges "begun" in the organization zone, not the machine zone', () => {
    // 09:30 and 10:30 in Douala on the day of NOW (10:00 there).
    const { upcoming, past } = orderDeviceBookings(
      [
        entry('begun', { date: '2026-11-20', time: '09:30' }),
        entry('later', { date: '2026-11-20', time: '10:30' }),
      ],
      new Map(),
      NOW,
    );
    expect(ids(upcoming)).toEqual(['later']);
    expect(ids(past)).toEqual(['begun']);
  });

  it('puts cancelled, failed, no-show and checked-in bookings with the past, whatever their date', () => {
    const entries = (['cancelled', 'failed', 'no_show', 'checked_in'] as const).map((state) =>
      entry(state, { state, date: '2026-12-10' }),
    );
    const { upcoming, past } = orderDeviceBookings(entries, new Map(), NOW);
    expect(upcoming).toEqual([]);
    expect(past.map((b) => b.state).sort()).toEqual([
      'cancelled',
      'checked_in',
      'failed',
      'no_show',
    ]);
  });

  it('keeps a payment in flight upcoming until its hold lapses', () => {
    const inFlight = entry('flight', { state: 'pending', hold_expires_at: '2026-11-20T09:04:00Z' });
    const lapsed = entry('lapsed', { state: 'pending', hold_expires_at: '2026-11-20T08:59:00Z' });
    const { upcoming, past } = orderDeviceBookings([inFlight, lapsed], new Map(), NOW);
    expect(upcoming.map((b) => [b.entry.booking_id, b.state])).toEqual([['flight', 'pending']]);
    expect(past.map((b) => [b.entry.booking_id, b.state])).toEqual([['lapsed', 'expired']]);
  });

  it('prefers what the server says: a rescheduled time, a cancellation', () => {
    const entries = [entry('moved', { date: '2026-11-21' }), entry('gone', { date: '2026-11-22' })];
    const answers = new Map([
      ['moved', fresh('moved')],
      ['gone', fresh('gone', { status: 'cancelled', cancelled_by: 'organization' })],
    ]);
    const { upcoming, past } = orderDeviceBookings(entries, answers, NOW);
    expect(upcoming.map((b) => [b.entry.booking_id, b.date, b.time])).toEqual([
      ['moved', '2026-11-27', '11:00'],
    ]);
    expect(past.map((b) => [b.entry.booking_id, b.state])).toEqual([['gone', 'cancelled']]);
  });
});

describe('stateOf and deviceEntryFor', () => {
  it('reads a held booking by its payment', () => {
    expect(stateOf(fresh('x', { status: 'held', payment: null }))).toBe('pending');
    const failed = {
      payment_id: 'p',
      status: 'FAILED' as const,
      failure_code: 'DECLINED',
      hold_expires_at: null,
      ussd_code: null,
    };
    expect(stateOf(fresh('x', { status: 'held', payment: failed }))).toBe('failed');
    expect(stateOf(fresh('x', { status: 'no_show' }))).toBe('no_show');
  });

  it('keeps the access key and the first save time, and names the service in the language', () => {
    const previous = entry('b1', { saved_at: '2026-11-01T00:00:00Z' });
    const saved = deviceEntryFor(fresh('b1'), 'key-new-0123456789', previous, NOW, 'fr');
    expect(saved).toMatchObject({
      booking_id: 'b1',
      access_key: 'key-new-0123456789',
      payment_id: 'pay-b1',
      date: '2026-11-27',
      time: '11:00',
      service: 'Consultation prénatale',
      state: 'confirmed',
      saved_at: '2026-11-01T00:00:00Z',
    });
    expect(deviceEntryFor(fresh('b2'), 'k', undefined, NOW, 'en').saved_at).toBe(NOW.toISOString());
  });
});
