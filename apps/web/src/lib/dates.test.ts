import { describe, expect, it } from 'vitest';
import { DAY_AND_MONTH, formatDate, LONG_DATE, MONTH_AND_YEAR } from './dates';

describe('formatDate', () => {
  it('formats MMMM yyyy in English and French', () => {
    expect(formatDate('2026-03-08', 'en-GB', MONTH_AND_YEAR)).toBe('March 2026');
    expect(formatDate('2026-03-08', 'fr-FR', MONTH_AND_YEAR)).toBe('mars 2026');
  });
  it('formats the long date of a booking', () => {
    // The separator after the weekday depends on the ICU version: check the parts.
    expect(formatDate('2026-03-16', 'en-GB', LONG_DATE)).toMatch(/^Monday,? 16 March 2026$/);
    expect(formatDate('2026-03-16', 'fr-FR', LONG_DATE)).toBe('lundi 16 mars 2026');
    expect(formatDate('2026-03-16', 'en-GB', DAY_AND_MONTH)).toMatch(/^Monday,? 16 March$/);
  });
  it('keeps the calendar day whatever the zone (first and last day of a year)', () => {
    expect(formatDate('2026-01-01', 'en-GB', LONG_DATE)).toMatch(/^Thursday,? 1 January 2026$/);
    expect(formatDate('2026-12-31', 'en-GB', LONG_DATE)).toMatch(/^Thursday,? 31 December 2026$/);
  });
});
