import type { AdminBooking, AttentionReason } from '@qless/contract';
import type { MessageKey } from '../../../i18n/en';

/** Index: 0 = Sunday. A Sunday at UTC noon, to name weekdays through Intl. */
const A_SUNDAY = Date.UTC(2026, 2, 1, 12);

export function weekdayName(day: number, intlLocale: string, width: 'long' | 'short'): string {
  return new Intl.DateTimeFormat(intlLocale, { weekday: width, timeZone: 'UTC' }).format(
    new Date(A_SUNDAY + day * 86_400_000),
  );
}

/** The days in the order a week is read here: Monday first. */
export const WEEK = [1, 2, 3, 4, 5, 6, 0] as const;

export const STATUS_KEYS: Record<AdminBooking['status'], MessageKey> = {
  held: 'bookingStatus.held',
  confirmed: 'bookingStatus.confirmed',
  checked_in: 'bookingStatus.checked_in',
  no_show: 'bookingStatus.no_show',
  cancelled: 'bookingStatus.cancelled',
  expired: 'bookingStatus.expired',
};

/** Who cancelled a cancelled booking. */
export const CANCELLED_BY_KEYS: Record<NonNullable<AdminBooking['cancelled_by']>, MessageKey> = {
  customer: 'adminBookings.cancelledBy.customer',
  organization: 'adminBookings.cancelledBy.organization',
};

/** The statuses in the contract's order (a type import: zod stays out of the web bundle). */
export const BOOKING_STATUSES = Object.keys(STATUS_KEYS) as AdminBooking['status'][];

/** Every reason the contract declares has its words (the compiler checks none is missing). */
const ATTENTION_KEYS: Record<AttentionReason, MessageKey> = {
  service_inactive: 'attention.service_inactive',
  closure: 'attention.closure',
  closed_day: 'attention.closed_day',
  outside_hours: 'attention.outside_hours',
  slot_changed: 'attention.slot_changed',
};

/** The reason in the reader's words; a reason this screen does not know is shown as sent. */
export function attentionReason(reason: string, t: (key: MessageKey) => string): string {
  return Object.hasOwn(ATTENTION_KEYS, reason)
    ? t(ATTENTION_KEYS[reason as AttentionReason])
    : reason;
}

/** "one" or "other" by the language's plural rules (French: 0 and 1 are singular). */
export function pluralOf(n: number, intlLocale: string): 'one' | 'other' {
  return new Intl.PluralRules(intlLocale).select(n) === 'one' ? 'one' : 'other';
}
