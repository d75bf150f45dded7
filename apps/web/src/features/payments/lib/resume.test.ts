import type { Ticket } from '@qless/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type DeviceBooking,
  readDeviceBookings,
  saveDeviceBooking,
} from '../../../lib/device-bookings';
import {
  clearResumeMarker,
  devicePatchFor,
  ownPendingOnSlot,
  paymentRefOf,
  RESUME_CHANGED_EVENT,
  readResumeMarker,
  recordStatus,
  resumableBooking,
  writeResumeMarker,
} from './resume';

class MemoryStorage {
  private data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
}

const NOW = new Date('2026-03-16T08:35:00.000Z');
const ADA = { username: 'Ada', email: 'ada@example.cm', phone: '677123456' };

function booking(id: string, patch: Partial<DeviceBooking> = {}): DeviceBooking {
  return {
    booking_id: id,
    payment_id: `p-${id}`,
    access_key: `k-${id}`,
    code: null,
    service_id: 's1',
    slot_id: 'slot-1',
    organization: 'Bamenda Regional Hospital',
    service: 'Antenatal clinic',
    date: '2026-03-20',
    time: '09:30',
    hold_expires_at: '2026-03-16T08:40:00.000Z',
    state: 'pending',
    saved_at: '2026-03-16T08:30:00.000Z',
    ...patch,
  };
}

let events = 0;
const count = () => {
  events += 1;
};

beforeEach(() => {
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal('dispatchEvent', (e: Event) => {
    if (e.type === RESUME_CHANGED_EVENT) count();
    return true;
  });
  events = 0;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('resume marker', () => {
  it('is written, read back, and cleared only for its own booking', () => {
    writeResumeMarker({ booking_id: 'b1', customer: ADA, phone: '+237677123456', ussd: '*126#' });
    expect(readResumeMarker()).toMatchObject({ booking_id: 'b1', ussd: '*126#' });
    clearResumeMarker('other');
    expect(readResumeMarker()).not.toBeNull();
    clearResumeMarker('b1');
    expect(readResumeMarker()).toBeNull();
    expect(events).toBe(2);
  });

  it('ignores a malformed stored value', () => {
    localStorage.setItem('qless.payment.resume', '{"booking_id":1}');
    expect(readResumeMarker()).toBeNull();
    localStorage.setItem('qless.payment.resume', 'not json');
    expect(readResumeMarker()).toBeNull();
  });
});

describe('resumableBooking', () => {
  it('is null on a device that never booked', () => {
    expect(resumableBooking(NOW)).toBeNull();
  });

  it('returns the payment in flight on this device', () => {
    saveDeviceBooking(booking('b1'));
    expect(resumableBooking(NOW)?.booking_id).toBe('b1');
  });

  it('prefers the booking the wizard was following, even paid (not yet seen)', () => {
    saveDeviceBooking(booking('b1', { state: 'confirmed', code: 'QL-1' }));
    saveDeviceBooking(booking('b2', { saved_at: '2026-03-16T08:33:00.000Z' }));
    writeResumeMarker({ booking_id: 'b1', customer: ADA, phone: '+237677123456', ussd: null });
    expect(resumableBooking(NOW)?.booking_id).toBe('b1');
    clearResumeMarker('b1');
    expect(resumableBooking(NOW)?.booking_id).toBe('b2');
  });

  it('still returns a pending one whose hold lapsed (it may have been paid) for a day', () => {
    saveDeviceBooking(booking('b1', { hold_expires_at: '2026-03-16T08:31:00.000Z' }));
    expect(resumableBooking(NOW)?.booking_id).toBe('b1');
    expect(resumableBooking(new Date('2026-03-17T09:00:00.000Z'))).toBeNull();
  });

  it('never returns a failed, cancelled or seen booking', () => {
    saveDeviceBooking(booking('b1', { state: 'failed' }));
    saveDeviceBooking(booking('b2', { state: 'cancelled' }));
    saveDeviceBooking(booking('b3', { state: 'confirmed', code: 'QL-3' }));
    expect(resumableBooking(NOW)).toBeNull();
  });
});

describe('ownPendingOnSlot', () => {
  it('finds this device’s live hold on that slot and date only', () => {
    saveDeviceBooking(booking('b1'));
    expect(ownPendingOnSlot('slot-1', '2026-03-20', NOW)?.booking_id).toBe('b1');
    expect(ownPendingOnSlot('slot-1', '2026-03-21', NOW)).toBeNull();
    expect(ownPendingOnSlot('slot-2', '2026-03-20', NOW)).toBeNull();
    expect(ownPendingOnSlot('slot-1', '2026-03-20', new Date('2026-03-16T08:41:00Z'))).toBeNull();
  });
});

describe('recording a status on the device', () => {
  const ticket = { code: 'QL-7' } as Ticket;
  const message = (status: 'PENDING' | 'SUCCESSFUL' | 'FAILED', extra = {}) => ({
    status,
    booking_id: 'b1',
    ticket: null,
    failure_code: null,
    ...extra,
  });

  it('maps each status to the device state', () => {
    expect(devicePatchFor(message('PENDING'))).toBeNull();
    expect(devicePatchFor(message('SUCCESSFUL', { ticket }))).toEqual({
      state: 'confirmed',
      code: 'QL-7',
    });
    expect(devicePatchFor(message('SUCCESSFUL'))).toEqual({ state: 'expired' });
    expect(devicePatchFor(message('FAILED', { failure_code: 'DECLINED' }))).toEqual({
      state: 'failed',
    });
    expect(devicePatchFor(message('FAILED', { failure_code: 'CANCELLED_BY_CUSTOMER' }))).toEqual({
      state: 'cancelled',
    });
  });

  it('updates the booking once and tells the page', () => {
    saveDeviceBooking(booking('b1'));
    expect(recordStatus('b1', message('SUCCESSFUL', { ticket }))).toBe(true);
    expect(readDeviceBookings()[0]).toMatchObject({ state: 'confirmed', code: 'QL-7' });
    expect(recordStatus('b1', message('SUCCESSFUL', { ticket }))).toBe(false);
    expect(recordStatus('unknown', message('FAILED'))).toBe(false);
    expect(events).toBe(1);
  });
});

describe('paymentRefOf', () => {
  it('takes the USSD code from the marker of the same booking only', () => {
    const entry = booking('b1');
    const marker = { booking_id: 'b1', customer: ADA, phone: '+237677123456', ussd: '*126#' };
    expect(paymentRefOf(entry, marker)).toEqual({
      paymentId: 'p-b1',
      bookingId: 'b1',
      accessKey: 'k-b1',
      holdExpiresAt: '2026-03-16T08:40:00.000Z',
      ussd: '*126#',
    });
    expect(paymentRefOf(entry, { ...marker, booking_id: 'b2' }).ussd).toBeNull();
  });

  it("shows the code of the number's operator, whatever code the marker kept", () => {
    const entry = booking('b1');
    // Written before the fix: MTN's code stored for an Orange number.
    const orange = { booking_id: 'b1', customer: ADA, phone: '+237699555010', ussd: '*126#' };
    expect(paymentRefOf(entry, orange).ussd).toBe('#150#');
    expect(paymentRefOf(entry, { ...orange, phone: '+237661234567' }).ussd).toBeNull();
  });
});
