import { describe, expect, it } from 'vitest';
import { type ExistingSlot, generateSlots, planSlots } from './slot-engine.js';

/** Worked cases beside the properties of slot-engine.test.ts: each pins one rule. */

const slot = (id: string, start: number, end: number, fields: Partial<ExistingSlot> = {}) => ({
  id,
  start,
  end,
  retired: false,
  referenced: false,
  ...fields,
});

describe('generateSlots, edge cases', () => {
  it('refuses a duration that is zero, negative or not whole', () => {
    for (const duration of [0, -15, 7.5, Number.NaN]) {
      expect(() => generateSlots(480, 600, duration)).toThrow(
        new RangeError('duration must be > 0'),
      );
    }
  });

  it('takes a one-minute duration and a last slot that ends exactly at closing', () => {
    expect(generateSlots(0, 3, 1)).toEqual([
      { start: 0, end: 1 },
      { start: 1, end: 2 },
      { start: 2, end: 3 },
    ]);
    expect(generateSlots(480, 510, 30)).toEqual([{ start: 480, end: 510 }]);
  });

  it('gives nothing when the hours are shorter than one slot or empty', () => {
    expect(generateSlots(480, 509, 30)).toEqual([]);
    expect(generateSlots(480, 480, 30)).toEqual([]);
  });
});

describe('planSlots, worked cases', () => {
  it('keeps an unchanged slot, updates a live one whose end moved (not a revival)', () => {
    const plan = planSlots(
      [slot('a', 480, 510), slot('b', 510, 540)],
      [
        { start: 480, end: 510 },
        { start: 510, end: 555 },
      ],
    );
    expect(plan).toEqual({
      keep: ['a'],
      update: [{ id: 'b', end: 555, revive: false }],
      insert: [],
      retire: [],
      remove: [],
    });
  });

  it('inserts a new start, retires a referenced slot and removes an unreferenced one', () => {
    const plan = planSlots(
      [slot('a', 480, 510, { referenced: true }), slot('b', 510, 540)],
      [{ start: 600, end: 630 }],
    );
    expect(plan).toEqual({
      keep: [],
      update: [],
      insert: [{ start: 600, end: 630 }],
      retire: ['a'],
      remove: ['b'],
    });
  });

  it('revives a retired slot with the generated end, even when it already had it', () => {
    const plan = planSlots(
      [slot('r', 480, 510, { retired: true, referenced: true })],
      [{ start: 480, end: 510 }],
    );
    expect(plan).toEqual({
      keep: [],
      update: [{ id: 'r', end: 510, revive: true }],
      insert: [],
      retire: [],
      remove: [],
    });
  });

  it('revives the first retired slot of a start, never a later one', () => {
    const plan = planSlots(
      [
        slot('first', 480, 510, { retired: true, referenced: true }),
        slot('second', 480, 525, { retired: true, referenced: true }),
      ],
      [{ start: 480, end: 540 }],
    );
    expect(plan.update).toEqual([{ id: 'first', end: 540, revive: true }]);
    expect(plan.insert).toEqual([]);
  });

  it('prefers the live slot of a start over a retired one with the same start', () => {
    const plan = planSlots(
      [
        slot('old', 480, 510, { retired: true, referenced: true }),
        slot('live', 480, 510),
        slot('later-old', 480, 525, { retired: true, referenced: true }),
      ],
      [{ start: 480, end: 510 }],
    );
    expect(plan).toEqual({ keep: ['live'], update: [], insert: [], retire: [], remove: [] });
  });

  it('leaves a retired slot that is no longer generated alone', () => {
    const plan = planSlots(
      [slot('gone', 480, 510, { retired: true, referenced: true }), slot('stays', 600, 630)],
      [{ start: 600, end: 630 }],
    );
    expect(plan).toEqual({ keep: ['stays'], update: [], insert: [], retire: [], remove: [] });
  });
});
