import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GraceWindow, orderQueue } from './queue-order.js';
import {
  type CounterRoute,
  counterOrder,
  type RoutableVisit,
  routedNext,
} from './queue-routing.js';

/*
 * Counters that route (decision 139): their own line first (primary services and visitors
 * sent to them by name), then the longest line they help. Minutes after 08:00 UTC.
 */
const DAY = Date.parse('2026-11-27T08:00:00Z');
const at = (minute: number) => new Date(DAY + minute * 60_000);
const GRACE: GraceWindow = { earlyMinutes: 30, lateMinutes: 15 };
const NOW = at(300);
const SERVICES = ['s1', 's2', 's3', 's4'] as const;
const COUNTERS = ['c1', 'c2', 'c3'] as const;

function person(id: string, minute: number, serviceId: string, forCounterId: string | null = null) {
  return {
    id,
    serviceId,
    slotStart: null,
    arrivedAt: at(minute),
    queuedAt: at(minute),
    forCounterId,
  } satisfies RoutableVisit;
}

const visitsArb = fc
  .array(
    fc.record({
      minute: fc.integer({ min: 0, max: 240 }),
      service: fc.constantFrom(...SERVICES),
      named: fc.option(fc.constantFrom(...COUNTERS), { freq: 4 }),
    }),
    { maxLength: 30 },
  )
  .map((drawn) =>
    drawn.map((d, i) => person(`v${String(i).padStart(3, '0')}`, d.minute, d.service, d.named)),
  );
const routeArb = fc
  .record({
    primary: fc.subarray([...SERVICES], { minLength: 1 }),
    helps: fc.subarray([...SERVICES]),
  })
  .map(
    (r): CounterRoute => ({
      id: 'c1',
      primary: new Set(r.primary),
      helps: new Set(r.helps.filter((s) => !r.primary.includes(s))),
    }),
  );
const standingArb = fc.subarray([...COUNTERS]).map((list) => new Set<string>(list));

describe('counters that route — properties', () => {
  it('calls from its own line while anyone waits there, in the order of its own line', () => {
    fc.assert(
      fc.property(visitsArb, routeArb, standingArb, (visits, route, standing) => {
        const order = counterOrder(visits, route, standing, NOW, GRACE);
        const isOwn = (v: RoutableVisit) =>
          (v.forCounterId === route.id && standing.has(route.id)) ||
          (route.primary.has(v.serviceId) &&
            !(v.forCounterId && v.forCounterId !== route.id && standing.has(v.forCounterId)));
        const own = visits.filter(isOwn);
        // Its own line comes first, exactly in the order of queue-order.ts.
        expect(order.slice(0, own.length).map((v) => v.id)).toEqual(
          orderQueue(own, NOW, GRACE).map((v) => v.id),
        );
        expect(routedNext(visits, route, standing, NOW, GRACE)?.id).toBe(order[0]?.id);
      }),
    );
  });

  it('never calls a visitor sent to another counter that still stands, nor a service it neither serves nor helps', () => {
    fc.assert(
      fc.property(visitsArb, routeArb, standingArb, (visits, route, standing) => {
        for (const v of counterOrder(visits, route, standing, NOW, GRACE)) {
          const named = v.forCounterId;
          if (named && standing.has(named)) expect(named).toBe(route.id);
          else expect(route.primary.has(v.serviceId) || route.helps.has(v.serviceId)).toBe(true);
        }
      }),
    );
  });

  it('leaves nobody behind: each waiting visitor is called by some counter of a set that serves every service', () => {
    fc.assert(
      fc.property(visitsArb, standingArb, (visits, standing) => {
        // c1 serves s1, s2; c2 serves s3, s4 and helps s1; c3 helps everything.
        const routes: CounterRoute[] = [
          { id: 'c1', primary: new Set(['s1', 's2']), helps: new Set() },
          { id: 'c2', primary: new Set(['s3', 's4']), helps: new Set(['s1']) },
          { id: 'c3', primary: new Set(), helps: new Set(SERVICES) },
        ];
        const reachable = new Set(
          routes
            .filter((r) => standing.has(r.id))
            .flatMap((r) => counterOrder(visits, r, standing, NOW, GRACE).map((v) => v.id)),
        );
        // Every visitor is callable by a standing counter (when at least one of each kind stands).
        if (standing.has('c1') && standing.has('c2')) {
          for (const v of visits) expect(reachable.has(v.id)).toBe(true);
        }
      }),
    );
  });

  it('helps the longest line first; a tie goes to the line whose head waited longest', () => {
    fc.assert(
      fc.property(visitsArb, (visits) => {
        const helper: CounterRoute = { id: 'c3', primary: new Set(), helps: new Set(SERVICES) };
        const plain = visits.map((v) => ({ ...v, forCounterId: null }));
        const next = routedNext(plain, helper, new Set(['c3']), NOW, GRACE);
        if (plain.length === 0) {
          expect(next).toBeNull();
          return;
        }
        const sizes = new Map<string, number>();
        for (const v of plain) sizes.set(v.serviceId, (sizes.get(v.serviceId) ?? 0) + 1);
        const longest = Math.max(...sizes.values());
        const chosen = next as RoutableVisit;
        expect(sizes.get(chosen.serviceId)).toBe(longest);
        for (const [service, size] of sizes) {
          if (size !== longest || service === chosen.serviceId) continue;
          const head = orderQueue(
            plain.filter((v) => v.serviceId === service),
            NOW,
            GRACE,
          )[0] as RoutableVisit;
          expect(head.queuedAt.getTime()).toBeGreaterThanOrEqual(chosen.queuedAt.getTime());
        }
      }),
    );
  });
});

describe('counters that route — cases', () => {
  const guichet1: CounterRoute = { id: 'c1', primary: new Set(['s1']), helps: new Set(['s2']) };

  it('serves its own service first, then helps the longest line', () => {
    const visits = [
      person('dep', 50, 's2'),
      person('own', 60, 's1'),
      person('dep2', 40, 's2'),
      person('other', 10, 's3'),
    ];
    const order = counterOrder(visits, guichet1, new Set(['c1']), NOW, GRACE).map((v) => v.id);
    expect(order).toEqual(['own', 'dep2', 'dep']);
  });

  it('calls a visitor sent to it by name first in its own line, even of a service it does not serve', () => {
    const visits = [person('own', 10, 's1'), person('sent', 5, 's3', 'c1')];
    expect(routedNext(visits, guichet1, new Set(['c1']), NOW, GRACE)?.id).toBe('sent');
  });

  it('a visitor sent to a counter that closed goes back to their service’s line', () => {
    const sent = person('sent', 5, 's1', 'c2');
    expect(routedNext([sent], guichet1, new Set(['c1', 'c2']), NOW, GRACE)).toBeNull();
    expect(routedNext([sent], guichet1, new Set(['c1']), NOW, GRACE)?.id).toBe('sent');
  });
});
