/**
 * An iCalendar (RFC 5545) file for one appointment, for "Add to calendar". Instants are
 * written in UTC (`...Z`): every calendar places them right whatever its own zone, and the
 * organization's zone needs no VTIMEZONE block. Pure: the caller gives every value, "now"
 * included, so the text is the same on any machine.
 */
export interface CalendarEvent {
  /** Stable per booking, so importing it again after a reschedule updates the same event. */
  uid: string;
  /** When the file is made (DTSTAMP). */
  stamp: Date;
  /** ISO 8601 instants (the booking's starts_at / ends_at). */
  startsAt: string;
  endsAt: string;
  summary: string;
  location: string;
  description: string;
  /** The ticket page. */
  url: string;
}

const CRLF = '\r\n';
/** RFC 5545 §3.1: lines longer than 75 octets are folded (CRLF + one space). */
const MAX_LINE_OCTETS = 75;

/** 20261126T090000Z */
export function icsUtc(instant: Date): string {
  if (Number.isNaN(instant.getTime())) throw new RangeError('Invalid instant');
  return instant
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** TEXT values (§3.3.11): backslash, semicolon, comma escaped; newlines as \n. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

const encoder = new TextEncoder();
const octets = (text: string) => encoder.encode(text).length;

/**
 * Folds one content line at 75 octets without splitting a UTF-8 character (nor a UTF-16
 * surrogate pair): continuation lines start with a space, which counts towards their 75.
 */
export function foldLine(line: string): string {
  if (octets(line) <= MAX_LINE_OCTETS) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const n = octets(char);
    const limit = parts.length === 0 ? MAX_LINE_OCTETS : MAX_LINE_OCTETS - 1;
    if (size + n > limit) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += n;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

export function buildIcs(event: CalendarEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Qless//Ticket//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${icsUtc(event.stamp)}`,
    `DTSTART:${icsUtc(new Date(event.startsAt))}`,
    `DTEND:${icsUtc(new Date(event.endsAt))}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `LOCATION:${escapeText(event.location)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    // URI values are not TEXT: no escaping (a ticket page link has no comma or semicolon).
    `URL:${event.url}`,
    'STATUS:CONFIRMED',
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}

/** "qless-QL-7K4M-2QAB-XC9D.ics" */
export function icsFileName(productName: string, code: string): string {
  const slug = productName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${slug || 'ticket'}-${code.replace(/[^A-Za-z0-9-]/g, '')}.ics`;
}
