import type { BookingStatus } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import type { AuthContext } from '../../core/access/auth-guard.js';
import type { CounterBooking } from '../tickets/ticket-check.js';
import {
  assertCustomerMayChange,
  assertOrganizationMay,
  assertOrganizationReaches,
  customerChangeBlocked,
} from './booking-policy.js';

// 2026-11-26 10:00 in Douala (UTC+1) is 09:00Z.
const timing = {
  booking_date: '2026-11-26',
  start_time: '10:00:00',
  time_zone: 'Africa/Douala',
  change_cutoff_minutes: 60,
};
const at = (iso: string) => new Date(iso);

function counterBooking(status: BookingStatus, date = '2026-11-26'): CounterBooking {
  return {
    booking_id: 'b1',
    organization_id: 'org-a',
    status,
    no_show_by: null,
    ticket_code: null,
    booking_date: date,
    cus_name: 'Ada',
    service_name: 'Service',
    service_name_fr: null,
    time_zone: 'Africa/Douala',
    start_time: '10:00:00',
    checked_in_at: null,
    checked_in_client_id: null,
    confirmed_at: null,
  };
}

function auth(role: AuthContext['user']['role'], organization: string | null): AuthContext {
  return {
    user: {
      id: 'u',
      email: 'u@x.cm',
      name: 'U',
      role,
      organization_id: organization,
      home_organization_id: organization,
      branch_ids: organization ? [organization] : [],
    },
    tokenHash: 'h',
    via: 'bearer',
    expiresAt: at('2030-01-01T00:00:00Z'),
  };
}

const codeOf = (fn: () => void): string | null => {
  try {
    fn();
    return null;
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('the customer', () => {
  it('may change a confirmed booking until the cut-off before its start, not after', () => {
    const row = { ...timing, status: 'confirmed' as const };
    expect(customerChangeBlocked(row, at('2026-11-26T07:59:59Z'))).toBeNull();
    expect(customerChangeBlocked(row, at('2026-11-26T08:00:00Z'))).toBe('PAST_CUTOFF');
    expect(codeOf(() => assertCustomerMayChange(row, at('2026-11-26T08:00:00Z')))).toBe(
      'CHANGE_PAST_CUTOFF',
    );
  });

  it('may not change a booking that is not confirmed', () => {
    for (const status of ['held', 'checked_in', 'cancelled', 'no_show', 'expired'] as const) {
      const row = { ...timing, status };
      expect(codeOf(() => assertCustomerMayChange(row, at('2026-11-25T00:00:00Z')))).toBe(
        'BOOKING_NOT_CHANGEABLE',
      );
    }
  });
});

describe('the organization and operators', () => {
  const now = at('2026-11-26T09:30:00Z');

  it('reach their own organization’s bookings (operators every one); staff today’s only', () => {
    const today = counterBooking('confirmed');
    const tomorrow = counterBooking('confirmed', '2026-11-27');
    expect(codeOf(() => assertOrganizationReaches(auth('staff', 'org-a'), today, now))).toBeNull();
    expect(codeOf(() => assertOrganizationReaches(auth('staff', 'org-a'), tomorrow, now))).toBe(
      'BOOKING_NOT_FOUND',
    );
    expect(
      codeOf(() => assertOrganizationReaches(auth('org_admin', 'org-a'), tomorrow, now)),
    ).toBeNull();
    expect(codeOf(() => assertOrganizationReaches(auth('org_admin', 'org-b'), today, now))).toBe(
      'BOOKING_NOT_FOUND',
    );
    expect(codeOf(() => assertOrganizationReaches(auth('operator', null), today, now))).toBeNull();
    expect(codeOf(() => assertOrganizationReaches(auth('operator', null), undefined, now))).toBe(
      'BOOKING_NOT_FOUND',
    );
  });

  it('cancel held or confirmed bookings, and mark a no-show only once the slot started', () => {
    expect(codeOf(() => assertOrganizationMay('cancel', counterBooking('held'), now))).toBeNull();
    expect(codeOf(() => assertOrganizationMay('cancel', counterBooking('checked_in'), now))).toBe(
      'ALREADY_CHECKED_IN',
    );
    expect(codeOf(() => assertOrganizationMay('no_show', counterBooking('held'), now))).toBe(
      'BOOKING_HELD',
    );
    const before = at('2026-11-26T08:59:59Z');
    expect(
      codeOf(() => assertOrganizationMay('no_show', counterBooking('confirmed'), before)),
    ).toBe('SLOT_NOT_STARTED');
    expect(
      codeOf(() => assertOrganizationMay('no_show', counterBooking('confirmed'), now)),
    ).toBeNull();
  });
});
