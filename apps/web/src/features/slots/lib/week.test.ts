import { describe, expect, it } from 'vitest';
import { buildWeek, mondayOf } from './week';

describe('buildWeek', () => {
  it('starts on Monday and has 7 days (the French week was once drawn from Sunday)', () => {
    const week = buildWeek('2026-03-11', 0); // a Wednesday
    expect(week.map((d) => d.date)).toEqual([
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
      '2026-03-13',
      '2026-03-14',
      '2026-03-15',
    ]);
    expect(week.filter((d) => d.isToday).map((d) => d.date)).toEqual(['2026-03-11']);
  });
  it('moves by whole weeks across months and years', () => {
    expect(buildWeek('2026-12-30', 1)[0]?.date).toBe('2027-01-04');
    expect(buildWeek('2026-03-02', -1)[6]?.date).toBe('2026-03-01');
    expect(buildWeek('2026-03-11', 1).some((d) => d.isToday)).toBe(false);
  });
  it('keeps Monday itself as the first day and a Sunday as the last', () => {
    expect(buildWeek('2026-03-09', 0)[0]?.date).toBe('2026-03-09');
    expect(buildWeek('2026-03-08', 0)[0]?.date).toBe('2026-03-02');
    expect(buildWeek('2026-03-08', 0)[6]?.date).toBe('2026-03-08');
  });
  it('finds the Monday of every day of a year', () => {
    for (let i = 0; i < 366; i += 1) {
      const day = new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
      const monday = mondayOf(day);
      expect(new Date(`${monday}T12:00:00Z`).getUTCDay(), day).toBe(1);
      const gap = (Date.parse(day) - Date.parse(monday)) / 86_400_000;
      expect(gap >= 0 && gap <= 6, day).toBe(true);
    }
  });
});
