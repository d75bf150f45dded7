/**
 * Time-of-day helpers. The wire keeps the spec's shape `{ Microseconds, Valid }` where
 * Microseconds is the time of day since local midnight in the organization's time zone.
 * Dates are `yyyy-MM-dd` strings end to end; we never build a JS Date at local midnight.
 */
export const MICROS_PER_MINUTE = 60_000_000;

export interface WireTime {
  Microseconds: number;
  Valid: boolean;
}

export function minutesToWire(minutes: number): WireTime {
  return { Microseconds: minutes * MICROS_PER_MINUTE, Valid: true };
}

export function wireToMinutes(t: WireTime): number {
  return Math.floor(t.Microseconds / MICROS_PER_MINUTE);
}

/** "HH:MM" for minutes since midnight, with no time-zone conversion at all. */
export function formatMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** Parses "HH:MM" or "HH:MM:SS" (00:00–24:00) into minutes; null when malformed. */
export function parseTimeOfDay(value: string): number | null {
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const h = Number(match[1]);
  const m = Number(match[2]);
  const s = match[3] === undefined ? 0 : Number(match[3]);
  if (m > 59 || s !== 0) return null;
  if (h > 24 || (h === 24 && m !== 0)) return null;
  return h * 60 + m;
}

/** The number `s` writes from `from` to `to` (exclusive) in ASCII digits; NaN otherwise. */
function digitsAt(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i += 1) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return Number.NaN;
    n = n * 10 + c;
  }
  return n;
}

/** Year, month and day of a `yyyy-MM-dd` text, or null when it is not written so. */
function dateParts(value: string): [number, number, number] | null {
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) {
    return null;
  }
  const parts: [number, number, number] = [
    digitsAt(value, 0, 4),
    digitsAt(value, 5, 7),
    digitsAt(value, 8, 10),
  ];
  return parts.some(Number.isNaN) ? null : parts;
}

/**
 * True for a real calendar date written as yyyy-MM-dd (years 0100 on: `Date.UTC` reads
 * 0–99 as 1900–1999). Parsed by hand: the public week read checks two per request.
 */
export function isIsoDate(value: string): boolean {
  const parts = dateParts(value);
  if (!parts) return false;
  const [y, m, d] = parts;
  if (y < 100 || m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = m === 2 ? (leap ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
  return d <= days;
}

function toUtcDays(date: string): number {
  const [y, m, d] = dateParts(date) ?? (date.split('-').map(Number) as [number, number, number]);
  return Date.UTC(y, m - 1, d) / 86_400_000;
}

function fromUtcDays(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return fromUtcDays(toUtcDays(date) + days);
}

/** Whole days from `a` to `b` (b − a). */
export function daysBetween(a: string, b: string): number {
  return toUtcDays(b) - toUtcDays(a);
}

/** 0 = Sunday … 6 = Saturday, for a yyyy-MM-dd date. */
export function dayOfWeek(date: string): number {
  return new Date(toUtcDays(date) * 86_400_000).getUTCDay();
}

/** The Sunday that starts the week containing `date`. */
export function weekStart(date: string): string {
  return addDays(date, -dayOfWeek(date));
}

export interface ZonedNow {
  /** Today in the zone, yyyy-MM-dd. */
  date: string;
  /** Minutes since local midnight in the zone. */
  minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock date and time of `instant` in an IANA time zone. */
export function zonedNow(timeZone: string, instant: Date): ZonedNow {
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(instant)) parts[p.type] = p.value;
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** True when the slot starting at `startMinutes` on `date` has begun in the zone at `instant`. */
export function isSlotInPast(
  date: string,
  startMinutes: number,
  timeZone: string,
  instant: Date,
): boolean {
  const now = zonedNow(timeZone, instant);
  if (date !== now.date) return date < now.date;
  return startMinutes <= now.minutes;
}

/**
 * The instant at which the wall clock of `timeZone` shows `minutes` past midnight on `date`
 * (a slot's start as a point in time: for calendars, countdowns, cut-offs and reminders; the
 * inverse of zonedNow). A wall time skipped by a daylight-saving jump maps to the instant
 * just after the jump (02:30 read with the offset before it); one repeated when clocks go
 * back, to its first occurrence.
 */
export function zonedInstant(date: string, minutes: number, timeZone: string): Date {
  const wall = toUtcDays(date) * 86_400_000 + minutes * 60_000;
  const offsetAt = (instant: number): number => {
    const z = zonedNow(timeZone, new Date(instant));
    return toUtcDays(z.date) * 86_400_000 + z.minutes * 60_000 - instant;
  };
  // The offsets in force half a day before and after: equal except near a change of offset.
  const before = wall - offsetAt(wall - 43_200_000);
  const after = wall - offsetAt(wall + 43_200_000);
  const shown = [before, after].filter((i) => i + offsetAt(i) === wall);
  // Shown twice (clocks went back): the first; never shown (clocks jumped): the later reading.
  return new Date(shown.length > 0 ? Math.min(...shown) : Math.max(before, after));
}
