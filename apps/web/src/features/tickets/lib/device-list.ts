import type { CustomerBooking } from '@qless/contract';
import {
  DEFAULT_TIME_ZONE,
  formatMinutes,
  localizedServiceName,
  zonedNow,
} from '@qless/contract/core';
import type { DeviceBooking } from '../../../lib/device-bookings';

/** What "My bookings" says of one booking. */
export type ListedState = DeviceBooking['state'];

export interface ListedBooking {
  entry: DeviceBooking;
  /** The server's answer, when it could be asked. */
  fresh: CustomerBooking | null;
  state: ListedState;
  /** yyyy-MM-dd and "HH:MM" in the organization's zone (the fresh ones when known). */
  date: string;
  time: string;
  upcoming: boolean;
}

/** The device's short state of a booking as the server reports it. */
export function stateOf(booking: CustomerBooking): ListedState {
  if (booking.status === 'held') {
    return booking.payment?.status === 'FAILED' ? 'failed' : 'pending';
  }
  return booking.status;
}

function listed(entry: DeviceBooking, fresh: CustomerBooking | null, now: Date): ListedBooking {
  let state: ListedState = fresh ? stateOf(fresh) : entry.state;
  // A payment this device last saw in flight whose hold has lapsed did not book the slot.
  if (!fresh && state === 'pending' && !(Date.parse(entry.hold_expires_at) > now.getTime())) {
    state = 'expired';
  }
  const date = fresh?.date ?? entry.date;
  const time = fresh?.time ?? entry.time;
  let started: boolean;
  if (fresh) {
    started = Date.parse(fresh.starts_at) <= now.getTime();
  } else {
    // Without the server, the wall clock of Cameroon's zone (every organization's so far).
    const today = zonedNow(DEFAULT_TIME_ZONE, now);
    started = `${date} ${time}` <= `${today.date} ${formatMinutes(today.minutes)}`;
  }
  const upcoming = (state === 'pending' || state === 'confirmed') && !started;
  return { entry, fresh, state, date, time, upcoming };
}

/**
 * Whether a booking is in today's queue: checked in today (in its organization's zone) with
 * a visit to follow. Its turn is what its visitor looks for.
 */
function inLineToday(b: ListedBooking, now: Date): boolean {
  if (b.state !== 'checked_in' || !b.fresh?.visit_id) return false;
  const zone = b.fresh.organization.time_zone || DEFAULT_TIME_ZONE;
  return b.date === zonedNow(zone, now).date;
}

/**
 * The bookings of this device in three lists: today's, checked in with a turn to follow;
 * the upcoming ones (paid or being paid, not yet begun), soonest first; then the rest
 * (past, cancelled, failed), latest first.
 */
export function orderDeviceBookings(
  entries: readonly DeviceBooking[],
  fresh: ReadonlyMap<string, CustomerBooking>,
  now: Date,
): { today: ListedBooking[]; upcoming: ListedBooking[]; past: ListedBooking[] } {
  const all = entries.map((e) => listed(e, fresh.get(e.booking_id) ?? null, now));
  const key = (b: ListedBooking) => `${b.date} ${b.time} ${b.entry.saved_at}`;
  const today = all.filter((b) => inLineToday(b, now));
  const rest = all.filter((b) => !today.includes(b));
  return {
    today: today.sort((a, b) => key(a).localeCompare(key(b))),
    upcoming: rest.filter((b) => b.upcoming).sort((a, b) => key(a).localeCompare(key(b))),
    past: rest.filter((b) => !b.upcoming).sort((a, b) => key(b).localeCompare(key(a))),
  };
}

/** What the device keeps of a booking the server described (after access or a refresh). */
export function deviceEntryFor(
  booking: CustomerBooking,
  accessKey: string,
  previous: DeviceBooking | undefined,
  now: Date,
  locale: 'en' | 'fr',
): DeviceBooking {
  return {
    booking_id: booking.booking_id,
    payment_id: booking.payment?.payment_id ?? previous?.payment_id ?? '',
    access_key: accessKey,
    code: booking.code,
    service_id: booking.service.service_id,
    slot_id: booking.slot_id,
    organization: booking.organization.name,
    service: localizedServiceName(booking.service, locale),
    date: booking.date,
    time: booking.time,
    hold_expires_at: booking.payment?.hold_expires_at ?? previous?.hold_expires_at ?? '',
    state: stateOf(booking),
    saved_at: previous?.saved_at ?? now.toISOString(),
  };
}
