import { describe, expect, it } from 'vitest';
import { boardUrl, joinUrl, parseCounter, parseSettings } from './setup-forms';

function form(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v);
  return data;
}

const GOOD: [string, string][] = [
  ['grace_early_minutes', '30'],
  ['grace_late_minutes', '15'],
  ['notify_position', '3'],
  ['max_recalls', '2'],
];

describe('the setup forms', () => {
  it('reads the rules, the join box ticked or not', () => {
    expect(parseSettings(form([...GOOD, ['join_enabled', 'on']]))).toEqual({
      grace_early_minutes: 30,
      grace_late_minutes: 15,
      notify_position: 3,
      max_recalls: 2,
      join_enabled: true,
      join_code: false,
      transfer_place: 'arrival',
    });
    expect(parseSettings(form(GOOD))?.join_enabled).toBe(false);
  });

  it('reads the hall code box (decision 125): off unless ticked', () => {
    expect(
      parseSettings(form([...GOOD, ['join_enabled', 'on'], ['join_code', 'on']]))?.join_code,
    ).toBe(true);
    expect(parseSettings(form([...GOOD, ['join_enabled', 'on']]))?.join_code).toBe(false);
  });

  it('reads where a transfer stands: by arrival unless "front" is chosen', () => {
    expect(parseSettings(form([...GOOD, ['transfer_place', 'front']]))?.transfer_place).toBe(
      'front',
    );
    expect(parseSettings(form([...GOOD, ['transfer_place', 'back']]))?.transfer_place).toBe(
      'arrival',
    );
  });

  it('refuses a rule out of its bounds, blank or not whole', () => {
    const swap = (name: string, value: string) =>
      form(GOOD.map(([k, v]) => [k, k === name ? value : v]));
    expect(parseSettings(swap('grace_early_minutes', '241'))).toBeNull();
    expect(parseSettings(swap('grace_late_minutes', '-1'))).toBeNull();
    expect(parseSettings(swap('notify_position', '0'))).toBeNull();
    expect(parseSettings(swap('max_recalls', '6'))).toBeNull();
    expect(parseSettings(swap('max_recalls', ''))).toBeNull();
    expect(parseSettings(swap('notify_position', '2.5'))).toBeNull();
  });

  it('reads a counter: a name and at least one service', () => {
    expect(
      parseCounter(
        form([
          ['name', ' Guichet 1 '],
          ['service_ids', 's1'],
          ['service_ids', 's2'],
        ]),
      ),
    ).toEqual({
      ok: true,
      name: 'Guichet 1',
      service_ids: ['s1', 's2'],
      help_service_ids: [],
    });
    expect(
      parseCounter(
        form([
          ['name', '  '],
          ['service_ids', 's1'],
        ]),
      ),
    ).toEqual({
      ok: false,
      missing: 'name',
    });
    expect(parseCounter(form([['name', 'Guichet 2']]))).toEqual({ ok: false, missing: 'services' });
  });

  it('reads the lines a counter helps, never one it serves (decision 139)', () => {
    const helping = (extra: [string, string][]) =>
      parseCounter(form([['name', 'Accueil'], ['service_ids', 's1'], ...extra]));
    expect(helping([['help_service_ids', 's2']])).toMatchObject({
      ok: true,
      service_ids: ['s1'],
      help_service_ids: ['s2'],
    });
    expect(helping([['help_service_ids', 's1']])).toEqual({ ok: false, missing: 'both' });
  });

  it('builds the board’s and the poster’s absolute addresses', () => {
    expect(boardUrl('https://qless.cm', 'tok_en/1')).toBe('https://qless.cm/board/tok_en%2F1');
    expect(joinUrl('https://qless.cm', 'org-1')).toBe('https://qless.cm/join/org-1');
  });
});
