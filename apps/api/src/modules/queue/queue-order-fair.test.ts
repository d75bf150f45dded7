import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CallKind,
  type Fairness,
  type GraceWindow,
  nextForCounter,
  type OrderableVisit,
  orderQueue,
  PLAIN,
  priorityDue,
} from './queue-order.js';

/*
 * The fair order among first-come visitors (decision 138): the ageing ceiling, then the
 * ratio of priority visitors, then arrival. Times are minutes after 08:00 (UTC) on one day.
 */
const DAY = Date.parse('2026-11-27T08:00:00Z');
const MINUTE = 60_000;
const at = (minute: number) => new Date(DAY + minute * MINUTE);
const ids = (visits: readonly OrderableVisit[]) => visits.map((v) => v.id);
const GRACE: GraceWindow = { earlyMinutes: 30, lateMinutes: 15 };
const kinds = (visits: readonly OrderableVisit[]): CallKind[] =>
  visits.map((v) => (v.priority ? 'priority' : 'regular'));

function person(id: string, minute: number, priority = false, serviceId = 's1'): OrderableVisit {
  return { id, serviceId, slotStart: null, arrivedAt: at(minute), queuedAt: at(minute), priority };
}

const ratio = fc.record({
  priority: fc.integer({ min: 1, max: 3 }),
  others: fc.integer({ min: 0, max: 4 }),
});
const recentCalls = fc.array(fc.constantFrom<CallKind>('priority', 'regular'), { maxLength: 8 });
/** First-come visitors, some of a priority category, arriving within the morning. */
const line = fc
  .array(fc.record({ minute: fc.integer({ min: 0, max: 240 }), priority: fc.boolean() }), {
    maxLength: 40,
  })
  .map((drawn) =>
    drawn.map((d, i) => person(`v${String(i).padStart(3, '0')}`, d.minute, d.priority)),
  );

describe('the fair order — properties', () => {
  it('holds the ratio: while both kinds wait, every p + o calls in a row hold exactly p priority visitors', () => {
    fc.assert(
      fc.property(line, ratio, recentCalls, (visits, r, recent) => {
        const fair: Fairness = { ratio: r, ceilingMinutes: null, recent };
        const order = orderQueue(visits, at(300), GRACE, fair);
        const seq = kinds(order);
        // The calls made while both kinds were still waiting.
        const lastPriority = seq.lastIndexOf('priority');
        const lastRegular = seq.lastIndexOf('regular');
        const both = Math.min(lastPriority, lastRegular) + 1;
        const size = r.priority + r.others;
        // The first p + o − 1 calls may still make up for the calls before them.
        for (let start = size - 1; start + size <= both; start += 1) {
          const window = seq.slice(start, start + size);
          expect(window.filter((k) => k === 'priority')).toHaveLength(r.priority);
        }
        // Within each kind, first come, first served.
        for (const kind of ['priority', 'regular'] as const) {
          const ofKind = order.filter((v) => (v.priority ? 'priority' : 'regular') === kind);
          const times = ofKind.map((v) => v.queuedAt.getTime());
          expect(times).toEqual([...times].sort((a, b) => a - b));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('never lets anyone wait more than the ceiling behind a later arrival while a counter calls', () => {
    // Arrivals through the morning; one counter calls every `every` minutes, as counter-actions
    // does: the next by the fair order at that minute, its own recent calls counted.
    const morning = fc.record({
      arrivals: fc.array(
        fc.record({ minute: fc.integer({ min: 0, max: 180 }), priority: fc.boolean() }),
        { minLength: 1, maxLength: 60 },
      ),
      every: fc.integer({ min: 1, max: 12 }),
      ceiling: fc.integer({ min: 5, max: 90 }),
      ratio,
    });
    fc.assert(
      fc.property(morning, ({ arrivals, every, ceiling, ratio: r }) => {
        const all = arrivals.map((a, i) =>
          person(`v${String(i).padStart(3, '0')}`, a.minute, a.priority),
        );
        const served = new Set<string>();
        const recent: CallKind[] = [];
        for (let minute = 0; served.size < all.length; minute += every) {
          const now = at(minute);
          const waiting = all.filter((v) => !served.has(v.id) && v.queuedAt <= now);
          const next = nextForCounter(waiting, new Set(['s1']), now, GRACE, {
            ratio: r,
            ceilingMinutes: ceiling,
            recent,
          });
          if (!next) continue;
          for (const w of waiting) {
            if (w.queuedAt < next.queuedAt) {
              // Someone earlier is passed over only while under the ceiling.
              expect(now.getTime() - w.queuedAt.getTime()).toBeLessThan(ceiling * MINUTE);
            }
          }
          served.add(next.id);
          recent.push(next.priority ? 'priority' : 'regular');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is total and stable: a permutation of the visits, whatever their input order', () => {
    fc.assert(
      fc.property(
        line.chain((visits) =>
          fc.tuple(fc.constant(visits), fc.shuffledSubarray(visits, { minLength: visits.length })),
        ),
        ratio,
        recentCalls,
        fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
        ([visits, shuffled], r, recent, ceilingMinutes) => {
          const fair: Fairness = { ratio: r, ceilingMinutes, recent };
          const ordered = orderQueue(visits, at(200), GRACE, fair);
          expect([...ids(ordered)].sort()).toEqual([...ids(visits)].sort());
          expect(ids(orderQueue(shuffled, at(200), GRACE, fair))).toEqual(ids(ordered));
          expect(ids(orderQueue(ordered, at(200), GRACE, fair))).toEqual(ids(ordered));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('without a ratio, a category changes nothing: one line by arrival', () => {
    fc.assert(
      fc.property(line, fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }), (visits, c) => {
        const plain = visits.map((v) => ({ ...v, priority: false }));
        const fair: Fairness = { ratio: null, ceilingMinutes: c, recent: [] };
        expect(ids(orderQueue(visits, at(300), GRACE, fair))).toEqual(
          ids(orderQueue(plain, at(300), GRACE, PLAIN)),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe('the fair order — examples', () => {
  const q = [
    person('r1', 0),
    person('r2', 1),
    person('r3', 2),
    person('r4', 3),
    person('p1', 10, true),
    person('p2', 11, true),
  ];

  it('one priority, then two others, from a counter that has just called two others', () => {
    const fair: Fairness = {
      ratio: { priority: 1, others: 2 },
      ceilingMinutes: null,
      recent: ['regular', 'regular'],
    };
    expect(ids(orderQueue(q, at(20), GRACE, fair))).toEqual(['p1', 'r1', 'r2', 'p2', 'r3', 'r4']);
    // The same counter just after a priority call: two others first.
    const after = { ...fair, recent: ['regular', 'priority'] as CallKind[] };
    expect(ids(orderQueue(q, at(20), GRACE, after))).toEqual(['r1', 'r2', 'p1', 'r3', 'r4', 'p2']);
  });

  it('serves priority visitors strictly first when the others count is 0', () => {
    const fair: Fairness = { ratio: { priority: 1, others: 0 }, ceilingMinutes: null, recent: [] };
    expect(ids(orderQueue(q, at(20), GRACE, fair))).toEqual(['p1', 'p2', 'r1', 'r2', 'r3', 'r4']);
  });

  it('puts those past the ceiling first, earliest first, then the ratio again', () => {
    // At 08:40 with a 38-minute ceiling, r1 (08:00), r2 and r3 have reached it; r4 (08:03,
    // 37 minutes) and p1, p2 have not: priority first (1:0) among those.
    const fair: Fairness = { ratio: { priority: 1, others: 0 }, ceilingMinutes: 38, recent: [] };
    expect(ids(orderQueue(q, at(40), GRACE, fair))).toEqual(['r1', 'r2', 'r3', 'p1', 'p2', 'r4']);
  });

  it('still calls a booked visitor within grace and a transfer sent ahead before anyone', () => {
    const booked: OrderableVisit = {
      id: 'b',
      serviceId: 's1',
      slotStart: at(20),
      arrivedAt: at(15),
      queuedAt: at(15),
    };
    const ahead: OrderableVisit = { ...person('t', 18), ahead: true };
    const fair: Fairness = { ratio: { priority: 1, others: 0 }, ceilingMinutes: 5, recent: [] };
    expect(ids(orderQueue([...q, booked, ahead], at(20), GRACE, fair)).slice(0, 3)).toEqual([
      't',
      'b',
      'r1',
    ]);
  });

  it('priorityDue counts only the last p + o − 1 calls', () => {
    const r = { priority: 2, others: 1 };
    expect(priorityDue(r, [])).toBe(true);
    expect(priorityDue(r, ['priority'])).toBe(true);
    expect(priorityDue(r, ['priority', 'priority'])).toBe(false);
    expect(priorityDue(r, ['priority', 'priority', 'regular'])).toBe(true);
    expect(priorityDue({ priority: 0, others: 3 }, [])).toBe(false);
  });
});
