import { describe, expect, it } from 'vitest';
import { buildWeek } from './week';

describe('buildWeek', () => {
  it('starts on Sunday and has 7 days', () => {
    const week = buildWeek('2026-03-11', 0); // a Wednesday
    expect(week.map((d) => d.date)).toEqual([
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
      '2026-03-13',
      '2026-03-14',
    ]);
    expect(week.filter((d) => d.isToday).map((d) => d.date)).toEqual(['2026-03-11']);
  });
  it('moves by whole weeks across months and years', () => {
    expect(buildWeek('2026-12-30', 1)[0]?.date).toBe('2027-01-03');
    expect(buildWeek('2026-03-01', -1)[6]?.date).toBe('2026-02-28');
    expect(buildWeek('2026-03-11', 1).some((d) => d.isToday)).toBe(false);
  });
  it('keeps Sunday itself as the first day', () => {
    expect(buildWeek('2026-03-08', 0)[0]?.date).toBe('2026-03-08');
  });
});
