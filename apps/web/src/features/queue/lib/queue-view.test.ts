import { describe, expect, it } from 'vitest';
import { counter, queueToday, SERVICES, visit } from './queue-fixtures';
import {
  clockTime,
  counterById,
  counterLine,
  heldVisit,
  minutesRange,
  noShowGate,
  racedFor,
  todaysNoShows,
  transferTargets,
  waitingFor,
  waitingLine,
} from './queue-view';

describe('the counter screen’s reading of the queue', () => {
  const line = [
    visit({ visit_id: 'v3', number: 'B-001', service_id: 's-loan', position: 1 }),
    visit({ visit_id: 'v1', number: 'A-002', position: 1 }),
    visit({ visit_id: 'v9', number: 'A-001', state: 'done' }),
    visit({ visit_id: 'v2', number: 'A-003', position: 2 }),
  ];

  it('keeps the server’s calling order and only the waiting visits', () => {
    expect(waitingLine(line).map((v) => v.visit_id)).toEqual(['v3', 'v1', 'v2']);
  });

  it('counts only the waiting visits of the counter’s services', () => {
    expect(waitingFor(waitingLine(line), counter({ service_ids: ['s-cash'] }))).toBe(2);
    expect(waitingFor(waitingLine(line), counter({ service_ids: ['s-cash', 's-loan'] }))).toBe(3);
    expect(waitingFor(waitingLine(line), null)).toBe(0);
  });

  it('finds the held visit by the counter’s link, or by the visit’s own counter', () => {
    const called = visit({ visit_id: 'v5', state: 'called', counter_id: 'c1' });
    const today = queueToday([...line, called], []);
    expect(heldVisit(today, counter({ current_visit_id: 'v5' }))?.visit_id).toBe('v5');
    expect(heldVisit(today, counter({ current_visit_id: null }))?.visit_id).toBe('v5');
    expect(heldVisit(today, counter({ counter_id: 'c2' }))).toBeNull();
    // A link to a visit already ended is not a held visit.
    expect(heldVisit(queueToday(line, []), counter({ current_visit_id: 'v9' }))).toBeNull();
  });

  it('finds a remembered counter only while the server still lists it', () => {
    const today = queueToday([], [counter()]);
    expect(counterById(today, 'c1')?.name).toBe('Guichet 1');
    expect(counterById(today, 'retired')).toBeNull();
    expect(counterById(today, null)).toBeNull();
  });

  it('offers every other service as a transfer target', () => {
    expect(transferTargets(SERVICES, { service_id: 's-cash' }).map((s) => s.service_id)).toEqual([
      's-loan',
    ]);
  });

  it('shows a range, lowest first', () => {
    expect(minutesRange({ min_minutes: 10, max_minutes: 20 })).toEqual({ min: 10, max: 20 });
    expect(minutesRange({ min_minutes: 25, max_minutes: 15 })).toEqual({ min: 15, max: 25 });
  });

  it('says a slot’s time in the organization’s zone, not the device’s', () => {
    // 08:30 UTC is 09:30 in Douala (UTC+1).
    expect(clockTime('2026-03-16T08:30:00.000Z', 'Africa/Douala', 'fr-CM')).toBe('09:30');
    expect(clockTime('not a date', 'Africa/Douala', 'fr-CM')).toBe('');
  });
});

describe('the counter’s own reading', () => {
  const line = [
    visit({ visit_id: 'l1', number: 'B-001', service_id: 's-loan', position: 1 }),
    visit({ visit_id: 'c1', number: 'A-002', position: 1 }),
    visit({ visit_id: 'c2', number: 'A-003', position: 2 }),
  ];

  it('puts this counter’s visitors first, in calling order; everyone is "other" with no counter', () => {
    const { mine, others } = counterLine(line, counter());
    expect(mine.map((v) => v.number)).toEqual(['A-002', 'A-003']);
    expect(others.map((v) => v.number)).toEqual(['B-001']);
    expect(counterLine(line, null).mine).toEqual([]);
  });

  it('lists this counter’s visitors in its own order when the server gives it (decision 138)', () => {
    const own = { ...counter(), calls_next: ['c2', 'c1'] };
    expect(counterLine(line, own).mine.map((v) => v.number)).toEqual(['A-003', 'A-002']);
  });

  it('with the server’s order, the lines it helps come after its own; without it, a visitor sent to another counter is not its (decision 139)', () => {
    const helping = { ...counter(), help_service_ids: ['s-loan'], calls_next: ['c1', 'c2', 'l1'] };
    const { mine, others } = counterLine(line, helping);
    expect(mine.map((v) => v.number)).toEqual(['A-002', 'A-003', 'B-001']);
    expect(others).toEqual([]);
    const sent = [...line, visit({ visit_id: 's1', number: 'A-009', for_counter_id: 'c9' })];
    expect(counterLine(sent, counter()).mine.map((v) => v.number)).toEqual(['A-002', 'A-003']);
    expect(waitingFor(sent, counter())).toBe(2);
  });

  it('offers No-show only to a called visitor recalled as often as set', () => {
    expect(noShowGate({ state: 'called', recalls: 1 }, 2)).toEqual({ allowed: false, left: 1 });
    expect(noShowGate({ state: 'called', recalls: 2 }, 2)).toEqual({ allowed: true, left: 0 });
    expect(noShowGate({ state: 'called', recalls: 0 }, 0).allowed).toBe(true);
    expect(noShowGate({ state: 'serving', recalls: 2 }, 2).allowed).toBe(false);
  });

  it('says a lost race: the first one shown was called elsewhere', () => {
    const [, a2, a3] = line;
    expect(racedFor('call-next', a2, a3 ?? null)).toEqual({ expected: 'A-002', number: 'A-003' });
    expect(racedFor('call-next', a2, a2 ?? null)).toBeNull();
    expect(racedFor('recall', a2, a3 ?? null)).toBeNull();
    expect(racedFor('call-next', null, a3 ?? null)).toBeNull();
  });

  it('lists today’s no-shows', () => {
    const all = [...line, visit({ visit_id: 'n', number: 'A-001', state: 'no_show' })];
    expect(todaysNoShows(all).map((v) => v.number)).toEqual(['A-001']);
  });
});
