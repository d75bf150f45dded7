import { describe, expect, it } from 'vitest';
import { type RangeChoice, rangeOf, shift } from './insight-range';

const at = (kind: RangeChoice['kind'], anchor: string, from = '', to = ''): RangeChoice => ({
  kind,
  anchor,
  from,
  to,
});

describe('insight ranges', () => {
  it('a day, its Monday-to-Sunday week, its calendar month', () => {
    expect(rangeOf(at('day', '2026-03-04'))).toEqual({ from: '2026-03-04', to: '2026-03-04' });
    // Wednesday 4 March 2026 → Monday 2 to Sunday 8; a Sunday stays in its own week.
    expect(rangeOf(at('week', '2026-03-04'))).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    expect(rangeOf(at('week', '2026-03-08'))).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    expect(rangeOf(at('month', '2028-02-10'))).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(rangeOf(at('month', '2026-12-31'))).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('custom ranges are checked as the API checks them', () => {
    expect(rangeOf(at('custom', '', '2026-01-01', '2026-12-31'))).toEqual({
      from: '2026-01-01',
      to: '2026-12-31',
    });
    expect(rangeOf(at('custom', '', '2024-01-01', '2024-12-31'))).toEqual({
      from: '2024-01-01',
      to: '2024-12-31',
    });
    expect(rangeOf(at('custom', '', '2025-01-01', '2026-01-02'))).toBe('tooLong');
    expect(rangeOf(at('custom', '', '2026-03-05', '2026-03-04'))).toBe('reversed');
    expect(rangeOf(at('custom', '', '2026-02-30', '2026-03-04'))).toBe('invalid');
    expect(rangeOf(at('day', ''))).toBe('invalid');
  });

  it('moves to the period before or after', () => {
    expect(shift(at('day', '2026-03-01'), -1).anchor).toBe('2026-02-28');
    expect(rangeOf(shift(at('week', '2026-03-04'), 1))).toEqual({
      from: '2026-03-09',
      to: '2026-03-15',
    });
    expect(rangeOf(shift(at('month', '2026-03-31'), -1))).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
    });
    expect(rangeOf(shift(at('month', '2026-12-15'), 1))).toEqual({
      from: '2027-01-01',
      to: '2027-01-31',
    });
    expect(shift(at('custom', '', '2026-03-01', '2026-03-10'), 1)).toMatchObject({
      from: '2026-03-11',
      to: '2026-03-20',
    });
  });
});
