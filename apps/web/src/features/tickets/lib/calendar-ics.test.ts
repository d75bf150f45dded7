import { describe, expect, it } from 'vitest';
import {
  buildIcs,
  type CalendarEvent,
  escapeText,
  foldLine,
  icsFileName,
  icsUtc,
} from './calendar-ics';

const EVENT: CalendarEvent = {
  uid: 'b5d0c0de-0000-4000-8000-000000000001@qless',
  stamp: new Date('2026-11-20T07:05:09.123Z'),
  // 10:00–10:30 in Douala (UTC+1) is 09:00–09:30 UTC.
  startsAt: '2026-11-26T09:00:00.000Z',
  endsAt: '2026-11-26T10:30:00+01:00',
  summary: 'Antenatal clinic, Bamenda Regional Hospital',
  location: 'Up Station; Bamenda',
  description: 'Ticket code: QL-7K4M-2QAB-XC9D\nhttp://localhost/#/ticket/QL-7K4M-2QAB-XC9D',
  url: 'http://localhost/#/ticket/QL-7K4M-2QAB-XC9D',
};

/** Unfolds (RFC 5545 §3.1) and splits into content lines. */
function contentLines(ics: string): string[] {
  return ics
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean);
}

function property(ics: string, name: string): string | undefined {
  return contentLines(ics)
    .find((line) => line.startsWith(`${name}:`))
    ?.slice(name.length + 1);
}

describe('buildIcs', () => {
  it('writes the start and end as UTC instants whatever the zone of the machine', () => {
    // The suite runs under TZ=Pacific/Kiritimati (UTC+14): a local-time slip would show.
    const ics = buildIcs(EVENT);
    expect(property(ics, 'DTSTART')).toBe('20261126T090000Z');
    expect(property(ics, 'DTEND')).toBe('20261126T093000Z');
    expect(property(ics, 'DTSTAMP')).toBe('20261120T070509Z');
  });

  it('has one VEVENT with UID, SUMMARY, LOCATION, DESCRIPTION and URL, escaped', () => {
    const ics = buildIcs(EVENT);
    const lines = contentLines(ics);
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.at(-1)).toBe('END:VCALENDAR');
    expect(lines).toContain('VERSION:2.0');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(property(ics, 'UID')).toBe(EVENT.uid);
    expect(property(ics, 'SUMMARY')).toBe('Antenatal clinic\\, Bamenda Regional Hospital');
    expect(property(ics, 'LOCATION')).toBe('Up Station\\; Bamenda');
    expect(property(ics, 'DESCRIPTION')).toBe(
      'Ticket code: QL-7K4M-2QAB-XC9D\\nhttp://localhost/#/ticket/QL-7K4M-2QAB-XC9D',
    );
    expect(property(ics, 'URL')).toBe(EVENT.url);
  });

  it('ends every line with CRLF and never has a bare LF or CR', () => {
    const ics = buildIcs(EVENT);
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('folds lines at 75 octets, counting UTF-8 bytes, and unfolds to the same text', () => {
    const summary = `Consultation prénatale — Hôpital régional de Bamenda, ${'é'.repeat(60)} 🇨🇲 fin`;
    const ics = buildIcs({ ...EVENT, summary, description: 'x'.repeat(300) });
    const encoder = new TextEncoder();
    for (const physical of ics.split('\r\n')) {
      expect(encoder.encode(physical).length).toBeLessThanOrEqual(75);
    }
    expect(property(ics, 'SUMMARY')).toBe(escapeText(summary));
    expect(property(ics, 'DESCRIPTION')).toBe('x'.repeat(300));
    // Continuation lines begin with one space.
    const folded = ics.split('\r\n').filter((l) => l.startsWith(' '));
    expect(folded.length).toBeGreaterThan(4);
  });

  it('refuses an invalid instant rather than writing NaN', () => {
    expect(() => buildIcs({ ...EVENT, startsAt: 'not a date' })).toThrow(RangeError);
  });
});

describe('ics pieces', () => {
  it('escapes backslashes before the characters it escapes with them', () => {
    expect(escapeText('a\\b;c,d\r\ne')).toBe('a\\\\b\\;c\\,d\\ne');
  });

  it('leaves a short line whole and never splits a multi-byte character', () => {
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short');
    const line = `X:${'€'.repeat(40)}`;
    const parts = foldLine(line).split('\r\n ');
    expect(parts.join('')).toBe(line);
    for (const part of parts) expect(part).not.toContain('\uFFFD');
  });

  it('formats a UTC instant without separators', () => {
    expect(icsUtc(new Date('2027-01-02T03:04:05Z'))).toBe('20270102T030405Z');
  });

  it('names the file after the product and the ticket code', () => {
    expect(icsFileName('Qless', 'QL-7K4M-2QAB-XC9D')).toBe('qless-QL-7K4M-2QAB-XC9D.ics');
  });
});
