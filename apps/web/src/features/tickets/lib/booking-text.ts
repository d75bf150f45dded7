import type { CustomerBooking, ErrorCode } from '@qless/contract';
import { localizedServiceName } from '@qless/contract/core';
import type { MessageKey } from '../../../i18n/en';
import { ApiError } from '../../../lib/api-client';
import { errorCodeKey } from '../../../lib/error-keys';
import { stateOf } from './device-list';

/**
 * A number and its unit, never split across lines (Intl puts a no-break space in some
 * units of some locales and a plain one in others: "2 heures" but "15 minutes").
 */
function unit(value: number, name: 'hour' | 'minute' | 'second', intlLocale: string): string {
  return new Intl.NumberFormat(intlLocale, { style: 'unit', unit: name, unitDisplay: 'long' })
    .format(value)
    .replace(/(\d) /, '$1\u00a0');
}

/** "2 hours", "30 minutes", "1 hour 30 minutes" ("2 heures" in French). */
export function durationText(minutes: number, intlLocale: string): string {
  const whole = Math.max(0, Math.round(minutes));
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  if (hours === 0) return unit(rest, 'minute', intlLocale);
  return rest === 0
    ? unit(hours, 'hour', intlLocale)
    : `${unit(hours, 'hour', intlLocale)} ${unit(rest, 'minute', intlLocale)}`;
}

/** A wait the server asked for, in seconds: "45 seconds", "3 minutes". */
export function waitText(seconds: number, intlLocale: string): string {
  if (seconds < 60) return unit(Math.max(1, Math.ceil(seconds)), 'second', intlLocale);
  return durationText(Math.ceil(seconds / 60), intlLocale);
}

/** An instant in the organization's zone: "26 Nov, 12:00" ("26 nov., 12:00"). */
export function instantText(iso: string, timeZone: string, intlLocale: string): string {
  return new Intl.DateTimeFormat(intlLocale, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(new Date(iso));
}

/** The service's name in the UI language: French when the organization gave one. */
export function serviceName(booking: Pick<CustomerBooking, 'service'>, locale: string): string {
  return localizedServiceName(booking.service, locale);
}

const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The address with its city, unless the address already names it. */
export function placeText(location: string, city: string): string {
  const address = location.trim();
  const town = city.trim();
  if (!town || folded(address).includes(folded(town))) return address;
  return address ? `${address}, ${town}` : town;
}

/** A link that searches the address on a map (directions from there), in a new tab. */
export function mapUrl(location: string, city: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(placeText(location, city))}`;
}

const SELF_SERVICE_KEYS: Partial<Record<ErrorCode, MessageKey>> = {
  BOOKING_ACCESS_DENIED: 'ticketPage.error.denied',
  INVALID_BOOKING_KEY: 'ticketPage.error.badLink',
  BOOKING_NOT_FOUND: 'ticketPage.error.notFound',
  TICKET_NOT_FOUND: 'ticketPage.error.notFound',
  INVALID_TICKET: 'ticketPage.error.badCode',
  INVALID_PHONE: 'ticketPage.access.last4Invalid',
  CHANGE_PAST_CUTOFF: 'ticketPage.error.pastCutoff',
  BOOKING_NOT_CHANGEABLE: 'ticketPage.error.notChangeable',
  SAME_SLOT: 'ticketPage.error.sameSlot',
  SLOT_TAKEN: 'ticketPage.error.slotTaken',
  DATE_OUT_OF_HORIZON: 'ticketPage.error.outOfHorizon',
  DAY_CLOSED: 'ticketPage.error.dayClosed',
};

export interface ErrorText {
  key: MessageKey;
  /** Seconds to wait, for "too many attempts" (null when the server gave none). */
  wait: number | null;
}

/** The message for a failed self-service call, by its code (the server's text is for logs). */
export function errorText(error: unknown): ErrorText {
  if (!(error instanceof ApiError)) return { key: 'ticketPage.error.generic', wait: null };
  if (error.status === 0) return { key: 'ticketPage.error.network', wait: null };
  if (error.code === 'TOO_MANY_ACCESS_ATTEMPTS' || error.status === 429) {
    return error.retryAfter !== null
      ? { key: 'ticketPage.error.tooMany', wait: error.retryAfter }
      : { key: 'ticketPage.error.tooManyLater', wait: null };
  }
  const key =
    (error.code && SELF_SERVICE_KEYS[error.code]) ??
    errorCodeKey(error.code) ??
    (error.status >= 500 ? 'ticketPage.error.server' : 'ticketPage.error.generic');
  return { key, wait: null };
}

/** The status chip's words: who cancelled, when it was cancelled. */
export function statusKey(booking: CustomerBooking): MessageKey {
  const state = stateOf(booking);
  if (state === 'cancelled') {
    if (booking.cancelled_by === 'customer') return 'ticketPage.status.cancelledByYou';
    if (booking.cancelled_by === 'organization') return 'ticketPage.status.cancelledByOrg';
    return 'ticketPage.status.cancelled';
  }
  return `ticketPage.status.${state}`;
}

/** The sentence under the status chip, if its state has one. */
export function bodyKey(booking: CustomerBooking): MessageKey | null {
  const state = stateOf(booking);
  if (state === 'cancelled') {
    if (booking.cancelled_by === 'customer') return 'ticketPage.body.cancelledByYou';
    if (booking.cancelled_by === 'organization') return 'ticketPage.body.cancelledByOrg';
    return null;
  }
  return `ticketPage.body.${state}`;
}
