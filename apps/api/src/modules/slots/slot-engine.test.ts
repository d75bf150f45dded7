import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ExistingSlot, generateSlots, planSlots, type SlotSpan } from './slot-engine.js';

const hours = fc
  .tuple(fc.integer({ min: 0, max: 24 * 60 }), fc.integer({ min: 0, max: 24 * 60 }))
  .filter(([a, b]) => a < b);
const duration = fc.integer({ min: 5, max: 720 });

/** Applies a plan the way the repository does, returning the live slots after it. */
function apply(existing: ExistingSlot[], desired: SlotSpan[]) {
  const plan = planSlots(existing, desired);
  let n = 0;
  const after = existing.map((s) => ({ ...s }));
  for (const u of plan.update) {
    const s = after.find((x) => x.id === u.id);
    if (!s) throw new Error('update of unknown slot');
    s.end = u.end;
    if (u.revive) s.retired = false;
  }
  for (const id of plan.retire) {
    const s = after.find((x) => x.id === id);
    if (s) s.retired = true;
  }
  const kept = after.filter((s) => !plan.remove.includes(s.id));
  for (const span of plan.insert) {
    n += 1;
    kept.push({ id: `new-${n}`, ...span, retired: false, referenced: false });
  }
  return {
    plan,
    all: kept,
    live: kept.filter((s) => !s.retired).sort((a, b) => a.start - b.start),
  };
}

describe('generateSlots', () => {
  it('matches a known day: 08:00–17:00 by 45 minutes', () => {
    const slots = generateSlots(8 * 60, 17 * 60, 45);
    expect(slots).toHaveLength(12);
    expect(slots[0]).toEqual({ start: 480, end: 525 });
    expect(slots.at(-1)).toEqual({ start: 975, end: 1020 });
  });

  it('leaves out a last slot that would end after closing', () => {
    expect(generateSlots(480, 500, 15)).toEqual([{ start: 480, end: 495 }]);
    expect(generateSlots(480, 490, 15)).toEqual([]);
  });

  it('never overlaps, stays inside hours, is contiguous and complete', () => {
    fc.assert(
      fc.property(hours, duration, ([start, end], d) => {
        const slots = generateSlots(start, end, d);
        expect(slots.length).toBe(Math.floor((end - start) / d));
        slots.forEach((s, k) => {
          expect(s.start).toBe(start + k * d);
          expect(s.end - s.start).toBe(d);
          expect(s.start).toBeGreaterThanOrEqual(start);
          expect(s.end).toBeLessThanOrEqual(end);
          if (k > 0) expect(s.start).toBe(slots[k - 1]?.end);
        });
        const last = slots.at(-1);
        // No room for one more slot after the last.
        expect((last?.end ?? start) + d).toBeGreaterThan(end);
      }),
    );
  });
});

describe('planSlots', () => {
  const existingFrom = (spans: SlotSpan[], referenced: (i: number) => boolean): ExistingSlot[] =>
    spans.map((s, i) => ({ id: `old-${i}`, ...s, retired: false, referenced: referenced(i) }));

  it('after any change the live slots are exactly the generated ones, ids stable for unchanged starts', () => {
    fc.assert(
      fc.property(
        hours,
        duration,
        hours,
        duration,
        fc.func(fc.boolean()),
        ([s1, e1], d1, [s2, e2], d2, isReferenced) => {
          const before = existingFrom(generateSlots(s1, e1, d1), (i) => isReferenced(i));
          const desired = generateSlots(s2, e2, d2);
          const { plan, all, live } = apply(before, desired);
          expect(live.map(({ start, end }) => ({ start, end }))).toEqual(desired);
          for (const old of before) {
            const stillWanted = desired.some((d) => d.start === old.start);
            const now = all.find((s) => s.id === old.id);
            if (stillWanted) expect(now?.retired).toBe(false);
            else if (old.referenced) expect(now?.retired).toBe(true);
            else expect(now).toBeUndefined();
          }
          // Referenced slots are never removed.
          for (const id of plan.remove)
            expect(before.find((b) => b.id === id)?.referenced).toBe(false);
        },
      ),
    );
  });

  it('is idempotent: planning the same hours twice changes nothing', () => {
    fc.assert(
      fc.property(hours, duration, ([s, e], d) => {
        const desired = generateSlots(s, e, d);
        const { all } = apply([], desired);
        const plan = planSlots(all, desired);
        expect(plan.insert).toEqual([]);
        expect(plan.update).toEqual([]);
        expect(plan.retire).toEqual([]);
        expect(plan.remove).toEqual([]);
        expect(plan.keep).toHaveLength(desired.length);
      }),
    );
  });

  it('revives a retired slot when its start comes back', () => {
    const original = generateSlots(480, 600, 30);
    const first = apply(
      existingFrom(original, () => true),
      generateSlots(480, 540, 30),
    );
    expect(first.live).toHaveLength(2);
    const second = apply(first.all, original);
    expect(second.plan.insert).toEqual([]);
    expect(second.live.map((s) => s.id)).toEqual(['old-0', 'old-1', 'old-2', 'old-3']);
  });
});
