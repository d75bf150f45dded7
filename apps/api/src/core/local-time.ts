import { formatMinutes, zonedNow } from '@qless/contract';

/** The local day and time of an organization: its time zone, at an instant of the clock. */

/** Today in the booking's organization's time zone. */
export function todayOf(booking: { time_zone: string }, now: Date): string {
  return zonedNow(booking.time_zone, now).date;
}

/** "HH:MM" of an instant in a time zone. */
export function localTime(instant: Date, timeZone: string): string {
  return formatMinutes(zonedNow(timeZone, instant).minutes);
}
