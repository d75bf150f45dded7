import { describe, expect, it } from 'vitest';
import { joinCodeRefreshIn, joinCodeStaleIn, shownJoinCode } from './board-join-code';

const CHANGES_AT = '2026-03-16T09:02:00.000Z';
const at = (iso: string) => Date.parse(iso);

describe('the board’s join code over time (decision 125)', () => {
  it('asks again just after the window ends, by the server’s clock; never in a loop', () => {
    expect(joinCodeRefreshIn(CHANGES_AT, at('2026-03-16T09:00:30.000Z'))).toBe(90_500);
    expect(joinCodeRefreshIn(CHANGES_AT, at('2026-03-16T09:01:59.900Z'))).toBe(1_000);
    // A screen whose clock (corrected) is past the window still waits a second.
    expect(joinCodeRefreshIn(CHANGES_AT, at('2026-03-16T09:05:00.000Z'))).toBe(1_000);
  });

  it('shows the code in its window, hides one not renewed a minute past it', () => {
    const answer = { required: true, code: '0427', changes_at: CHANGES_AT };
    expect(shownJoinCode(answer, at('2026-03-16T09:01:00.000Z'))).toBe('0427');
    expect(shownJoinCode(answer, at('2026-03-16T09:02:59.000Z'))).toBe('0427');
    expect(shownJoinCode(answer, at('2026-03-16T09:03:00.000Z'))).toBeNull();
    expect(joinCodeStaleIn(answer, at('2026-03-16T09:02:00.000Z'))).toBe(60_000);
    expect(shownJoinCode({ ...answer, required: false, code: null }, at(CHANGES_AT))).toBeNull();
    expect(shownJoinCode(null, at(CHANGES_AT))).toBeNull();
  });
});
