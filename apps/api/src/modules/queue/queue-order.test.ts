import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type GraceWindow,
  hasBookedPriority,
  nextForCounter,
  type OrderableVisit,
  orderQueue,
  positionsByService,
} from './queue-order.js';

/*
 * The ordering rule of decision 020. Times are minutes after 08:00 (UTC) on one day, so that
 * equal instants (ties) happen often in generated cases.
 */
const DAY = Date.parse('2026-11-27T08:00:00Z');
const at = (minute: number) => new Date(DAY + minute * 60_000);
const ids = (visits: readonly OrderableVisit[]) => visits.map((v) => v.id);
const GRACE: GraceWindow = { earlyMinutes: 30, lateMinutes: 15 };

function walkIn(id: string, minute: number, serviceId = 's1'): OrderableVisit {
  return { id, serviceId, slotStart: null, arrivedAt: at(minute), queuedAt: at(minute) };
}
function booked(id: string, slot: number, arrived: number, serviceId = 's1'): OrderableVisit {
  return { id, serviceId, slotStart: at(slot), arrivedAt: at(arrived), queuedAt: at(arrived) };
}
function transfer(id: string, arrived: number, moved: number, serviceId = 's1'): OrderableVisit {
  return { id, serviceId, slotStart: null, arrivedAt: at(arrived), queuedAt: at(moved) };
}

type Kind = 'walk-in' | 'booked' | 'transfer';
interface Drawn {
  kind: Kind;
  serviceId: string;
  /** walk-in: arrival; booked: slot start; transfer: arrival. */
  minute: number;
  /** booked: arrival − slot start; transfer: transfer − arrival (≥ 0). */
  offset: number;
}

const drawnVisit: fc.Arbitrary<Drawn> = fc.record({
  kind: fc.constantFrom<Kind>('walk-in', 'booked', 'transfer'),
  serviceId: fc.constantFrom('s1', 's2', 's3'),
  minute: fc.integer({ min: 0, max: 480 }),
  offset: fc.integer({ min: -150, max: 90 }),
});

function toVisit(d: Drawn, index: number): OrderableVisit {
  const id = `v${String(index).padStart(3, '0')}`;
  if (d.kind === 'walk-in') return walkIn(id, d.minute, d.serviceId);
  if (d.kind === 'booked') return booked(id, d.minute, d.minute + d.offset, d.serviceId);
  return transfer(id, d.minute, d.minute + Math.abs(d.offset), d.serviceId);
}

const grace: fc.Arbitrary<GraceWindow> = fc.record({
  earlyMinutes: fc.integer({ min: 0, max: 240 }),
  lateMinutes: fc.integer({ min: 0, max: 120 }),
});

/** Visits waiting at `now`: every one entered its line at or before now. */
const waitingCase = fc
  .record({
    drawn: fc.array(drawnVisit, { maxLength: 40 }),
    grace,
    after: fc.integer({ min: 0, max: 300 }),
  })
  .map(({ drawn, grace, after }) => {
    const visits = drawn.map(toVisit);
    const last = Math.max(DAY, ...visits.map((v) => v.queuedAt.getTime()));
    return { visits, grace, now: new Date(last + after * 60_000) };
  });

const isWalkIn = (v: OrderableVisit) => v.slotStart === null;
const withinGrace = (v: OrderableVisit, g: GraceWindow) =>
  v.slotStart !== null && v.arrivedAt.getTime() <= v.slotStart.getTime() + g.lateMinutes * 60_000;

describe('orderQueue — properties', () => {
  it('is total and deterministic: a permutation of the visits, whatever their input order', () => {
    fc.assert(
      fc.property(
        waitingCase.chain((c) =>
          fc.tuple(fc.constant(c), fc.shuffledSubarray(c.visits, { minLength: c.visits.length })),
        ),
        ([{ visits, grace, now }, shuffled]) => {
          const ordered = orderQueue(visits, now, grace);
          expect([...ids(ordered)].sort()).toEqual([...ids(visits)].sort());
          expect(ids(orderQueue(shuffled, now, grace))).toEqual(ids(ordered));
          expect(ids(orderQueue(ordered, now, grace))).toEqual(ids(ordered));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never puts a later walk-in (or transfer) of the same service ahead of anyone', () => {
    fc.assert(
      fc.property(waitingCase, ({ visits, grace, now }) => {
        const place = new Map(ids(orderQueue(visits, now, grace)).map((id, i) => [id, i]));
        for (const v of visits) {
          for (const w of visits) {
            if (w === v || !isWalkIn(w) || w.serviceId !== v.serviceId) continue;
            if (w.queuedAt.getTime() > v.queuedAt.getTime()) {
              expect(place.get(v.id)).toBeLessThan(place.get(w.id) as number);
            }
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('puts a booked visitor within grace ahead of every walk-in who arrived after their slot began', () => {
    fc.assert(
      fc.property(waitingCase, ({ visits, grace, now }) => {
        const place = new Map(ids(orderQueue(visits, now, grace)).map((id, i) => [id, i]));
        for (const b of visits) {
          if (!withinGrace(b, grace)) continue;
          for (const w of visits) {
            if (!isWalkIn(w) || w.queuedAt.getTime() <= (b.slotStart as Date).getTime()) continue;
            expect(place.get(b.id)).toBeLessThan(place.get(w.id) as number);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('serves a booked visitor later than the grace exactly as a walk-in from their arrival', () => {
    fc.assert(
      fc.property(waitingCase, ({ visits, grace, now }) => {
        const asWalkIns = visits.map((v) =>
          v.slotStart && !withinGrace(v, grace) ? { ...v, slotStart: null } : v,
        );
        expect(ids(orderQueue(visits, now, grace))).toEqual(ids(orderQueue(asWalkIns, now, grace)));
        for (const v of visits) {
          if (v.slotStart && !withinGrace(v, grace)) {
            expect(hasBookedPriority(v, now, grace)).toBe(false);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps priority once given: a booked visitor never falls back as time passes', () => {
    fc.assert(
      fc.property(
        waitingCase,
        fc.integer({ min: 0, max: 600 }),
        ({ visits, grace, now }, later) => {
          const then = new Date(now.getTime() + later * 60_000);
          for (const v of visits) {
            if (hasBookedPriority(v, now, grace))
              expect(hasBookedPriority(v, then, grace)).toBe(true);
          }
          // Whoever has no priority keeps their relative order: only booked visitors move up.
          const plain = (t: Date) =>
            ids(orderQueue(visits, t, grace).filter((v) => !hasBookedPriority(v, then, grace)));
          expect(plain(then)).toEqual(plain(now));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('nextForCounter calls only the services of the counter: the first of them in the order', () => {
    const services = fc.subarray(['s1', 's2', 's3']);
    fc.assert(
      fc.property(waitingCase, services, ({ visits, grace, now }, served) => {
        const set = new Set(served);
        const next = nextForCounter(visits, set, now, grace);
        const expected = orderQueue(visits, now, grace).find((v) => set.has(v.serviceId)) ?? null;
        expect(next?.id ?? null).toBe(expected?.id ?? null);
        if (next) expect(set.has(next.serviceId)).toBe(true);
        else expect(visits.some((v) => set.has(v.serviceId))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('over a day of calls, no one is overtaken by a later walk-in of their service, and no booked visitor within grace by a walk-in who came after their slot began', () => {
    const counters = fc.array(fc.subarray(['s1', 's2', 's3'], { minLength: 1 }), {
      minLength: 1,
      maxLength: 4,
    });
    const calls = fc.array(
      fc.record({ minute: fc.integer({ min: 0, max: 600 }), counter: fc.nat() }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(
        fc.array(drawnVisit, { maxLength: 40 }),
        grace,
        counters,
        calls,
        (drawn, g, counterServices, callList) => {
          const visits = drawn.map(toVisit);
          const calledAt = new Map<string, number>();
          const sortedCalls = [...callList].sort((a, b) => a.minute - b.minute);
          for (const call of sortedCalls) {
            const t = at(call.minute);
            const waiting = visits.filter(
              (v) => v.queuedAt.getTime() <= t.getTime() && !calledAt.has(v.id),
            );
            const served = new Set(counterServices[call.counter % counterServices.length]);
            const next = nextForCounter(waiting, served, t, g);
            if (!next) continue;
            calledAt.set(next.id, t.getTime());
            // Everyone still waiting at t who must not be overtaken by `next`.
            for (const v of waiting) {
              if (v === next || v.serviceId !== next.serviceId || !isWalkIn(next)) continue;
              if (next.queuedAt.getTime() > v.queuedAt.getTime()) {
                throw new Error(
                  `${next.id} (later walk-in) called before ${v.id} at ${call.minute}`,
                );
              }
              if (withinGrace(v, g) && next.queuedAt.getTime() > (v.slotStart as Date).getTime()) {
                throw new Error(`${next.id} called before booked ${v.id} within grace`);
              }
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives each waiting visit its 1-based place in its own service’s line', () => {
    fc.assert(
      fc.property(waitingCase, ({ visits, grace, now }) => {
        const ordered = orderQueue(visits, now, grace);
        const places = positionsByService(ordered);
        for (const v of ordered) {
          const sameBefore = ordered
            .slice(0, ordered.indexOf(v))
            .filter((o) => o.serviceId === v.serviceId).length;
          expect(places.get(v.id)).toBe(sameBefore + 1);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('orderQueue — the decision record’s examples (grace 30 min early, 15 min late)', () => {
  it('serves walk-ins first come, first served', () => {
    const q = [walkIn('c', 20), walkIn('a', 5), walkIn('b', 10)];
    expect(ids(orderQueue(q, at(30), GRACE))).toEqual(['a', 'b', 'c']);
  });

  it('serves a booked visitor at their slot time ahead of walk-ins who came earlier', () => {
    // Slot 10:00 (minute 120), checked in at 09:50; walk-ins since 08:10.
    const q = [walkIn('w1', 10), walkIn('w2', 60), booked('b', 120, 110), walkIn('w3', 115)];
    expect(ids(orderQueue(q, at(121), GRACE))).toEqual(['b', 'w1', 'w2', 'w3']);
  });

  it('gives priority from slot start − early grace: an earlier arrival waits in line until then', () => {
    // Slot 10:00, arrived 09:00: a walk-in of 09:00 until 09:30, then ahead of everyone.
    const q = [walkIn('w1', 50), booked('b', 120, 60), walkIn('w2', 70)];
    expect(ids(orderQueue(q, at(89), GRACE))).toEqual(['w1', 'b', 'w2']);
    expect(ids(orderQueue(q, at(90), GRACE))).toEqual(['b', 'w1', 'w2']);
  });

  it('keeps priority up to 15 minutes late; later, the visitor is a walk-in from their arrival', () => {
    const onTime = [walkIn('w', 100), booked('b', 120, 135)];
    expect(ids(orderQueue(onTime, at(136), GRACE))).toEqual(['b', 'w']);
    const late = [walkIn('w1', 100), booked('b', 120, 136), walkIn('w2', 137)];
    expect(ids(orderQueue(late, at(138), GRACE))).toEqual(['w1', 'b', 'w2']);
  });

  it('orders booked visitors by slot start, then by arrival', () => {
    const q = [booked('b10-30', 150, 125), booked('b10', 120, 130), booked('b10-early', 120, 100)];
    expect(ids(orderQueue(q, at(130), GRACE))).toEqual(['b10-early', 'b10', 'b10-30']);
  });

  it('queues a transfer at the time of the transfer, behind those already waiting there', () => {
    const q = [walkIn('w1', 60, 's2'), transfer('t', 10, 70, 's2'), walkIn('w2', 80, 's2')];
    expect(ids(orderQueue(q, at(90), GRACE))).toEqual(['w1', 't', 'w2']);
  });

  it('a transfer that keeps its place by arrival (decision 118) goes ahead of later walk-ins', () => {
    // In line since 08:10 elsewhere, moved at 09:10 into a line where w1 came at 09:00.
    const kept = { ...transfer('t', 10, 70, 's2'), placeAt: at(10) };
    const q = [walkIn('w1', 60, 's2'), kept, walkIn('w2', 80, 's2')];
    expect(ids(orderQueue(q, at(90), GRACE))).toEqual(['t', 'w1', 'w2']);
    // Booked visitors within their grace still come first.
    const b = booked('b', 85, 80, 's2');
    expect(ids(orderQueue([...q, b], at(90), GRACE))).toEqual(['b', 't', 'w1', 'w2']);
  });

  it('a transfer sent to the front comes before everyone, earlier such transfers first', () => {
    const front = (id: string, moved: number) => ({
      ...transfer(id, 10, moved, 's2'),
      ahead: true,
    });
    const q = [walkIn('w1', 60, 's2'), booked('b', 85, 80, 's2'), front('f2', 88), front('f1', 86)];
    expect(ids(orderQueue(q, at(90), GRACE))).toEqual(['f1', 'f2', 'b', 'w1']);
  });

  it('breaks a tie (same instant) by the visit id', () => {
    const q = [walkIn('b', 10), walkIn('a', 10)];
    expect(ids(orderQueue(q, at(11), GRACE))).toEqual(['a', 'b']);
  });

  it('lets a counter call only the services it serves', () => {
    const q = [walkIn('x', 5, 's2'), walkIn('y', 10, 's1')];
    expect(nextForCounter(q, new Set(['s1']), at(20), GRACE)?.id).toBe('y');
    expect(nextForCounter(q, new Set(['s3']), at(20), GRACE)).toBeNull();
  });
});
