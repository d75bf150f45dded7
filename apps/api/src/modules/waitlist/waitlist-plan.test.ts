import { describe, expect, it } from 'vitest';
import { type PlanBooking, type PlanEntry, type PlanInput, planDay } from './waitlist-plan.js';

const NOW = new Date('2026-03-04T08:30:00Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

function entry(id: string, over: Partial<PlanEntry> = {}): PlanEntry {
  return {
    id,
    phone: `+2376770000${id.padStart(2, '0')}`,
    state: 'waiting',
    createdAt: at(-60),
    offeredSlotId: null,
    offeredAt: null,
    offerExpiresAt: null,
    ...over,
  };
}

function input(over: Partial<PlanInput>): PlanInput {
  return {
    now: NOW,
    holdMinutes: 15,
    bookable: true,
    slots: [{ id: 's1', capacity: 2, startsAt: at(120), taken: 2 }],
    bookings: [],
    entries: [],
    ...over,
  };
}

const booking = (over: Partial<PlanBooking>): PlanBooking => ({
  id: 'b',
  slotId: 's1',
  phone: '+237699999999',
  paid: true,
  liveHold: false,
  createdAt: at(-1),
  ...over,
});

describe('planDay (decision 023)', () => {
  it('offers each free seat not yet offered to the next in line, and no more', () => {
    const plan = planDay(
      input({
        slots: [
          { id: 's1', capacity: 2, startsAt: at(120), taken: 1 },
          { id: 's2', capacity: 2, startsAt: at(150), taken: 0 },
        ],
        entries: ['1', '2', '3', '4'].map((id) => entry(id)),
      }),
    );
    expect(plan.offers.map((o) => [o.id, o.slotId])).toEqual([
      ['1', 's1'],
      ['2', 's2'],
      ['3', 's2'],
    ]);
    expect(plan.offers[0]?.expiresAt).toEqual(at(15));
    expect(plan.ended).toEqual([]);
  });

  it('an offer ends at the slot when it starts before the hold would', () => {
    const plan = planDay(
      input({
        slots: [{ id: 's1', capacity: 1, startsAt: at(10), taken: 0 }],
        entries: [entry('1')],
      }),
    );
    expect(plan.offers).toEqual([{ id: '1', slotId: 's1', expiresAt: at(10) }]);
  });

  it('someone else paid first: the latest offer of the slot is missed, an offer being paid is kept', () => {
    const offered = (id: string, minutesAgo: number) =>
      entry(id, {
        state: 'offered',
        offeredSlotId: 's1',
        offeredAt: at(-minutesAgo),
        offerExpiresAt: at(15 - minutesAgo),
      });
    const a = offered('1', 5);
    const b = offered('2', 3);
    const c = offered('3', 1);
    // Three seats: the first offer's number holds one (paying), a stranger paid for another.
    const plan = planDay(
      input({
        slots: [{ id: 's1', capacity: 3, startsAt: at(120), taken: 2 }],
        bookings: [
          booking({ id: 'mine', liveHold: true, paid: false, phone: a.phone }),
          booking({ id: 'stranger' }),
        ],
        entries: [a, b, c],
      }),
    );
    // One seat left for two open offers: the latest loses it, the earlier keeps it.
    expect(plan.ended).toEqual([{ id: '3', state: 'missed', bookingId: null }]);
    expect(plan.offers).toEqual([]);
  });

  it('at night nothing is offered (nobody woken, no hold lapsing in sleep); endings still apply', () => {
    const night = input({
      quiet: true,
      slots: [{ id: 's1', capacity: 2, startsAt: at(600), taken: 1 }],
      entries: [entry('1')],
    });
    expect(planDay(night)).toEqual({ ended: [], offers: [] });
    expect(planDay({ ...night, quiet: false }).offers.map((o) => o.id)).toEqual(['1']);
  });

  it("a stranger's payment under way takes no offer away (it may fail); only a paid seat does", () => {
    const offered = entry('1', {
      state: 'offered',
      offeredSlotId: 's1',
      offeredAt: at(-2),
      offerExpiresAt: at(13),
    });
    const holding = input({
      slots: [{ id: 's1', capacity: 1, startsAt: at(120), taken: 1 }],
      bookings: [booking({ liveHold: true, paid: false })],
      entries: [offered, entry('2')],
    });
    const plan = planDay(holding);
    expect(plan.ended).toEqual([]);
    // Nobody else is offered the seat meanwhile.
    expect(plan.offers).toEqual([]);
    // The stranger paid: the offer is missed.
    const paid = planDay({ ...holding, bookings: [booking({})] });
    expect(paid.ended).toEqual([{ id: '1', state: 'missed', bookingId: null }]);
  });

  it('an offer past its hold lapses and its seat goes to the next; a number that paid is booked', () => {
    const lapsing = entry('1', {
      state: 'offered',
      offeredSlotId: 's1',
      offeredAt: at(-20),
      offerExpiresAt: at(-5),
    });
    const paid = entry('2');
    const plan = planDay(
      input({
        slots: [{ id: 's1', capacity: 2, startsAt: at(120), taken: 1 }],
        bookings: [booking({ id: 'mine', phone: paid.phone, slotId: 's1' })],
        entries: [lapsing, paid, entry('3')],
      }),
    );
    expect(plan.ended).toEqual([
      { id: '1', state: 'lapsed', bookingId: null },
      { id: '2', state: 'booked', bookingId: 'mine' },
    ]);
    expect(plan.offers.map((o) => o.id)).toEqual(['3']);
  });

  it('nothing is offered once the day cannot be booked or its last slot is about to begin', () => {
    const line = [
      entry('1'),
      entry('2', {
        state: 'offered',
        offeredSlotId: 's1',
        offeredAt: at(-1),
        offerExpiresAt: at(14),
      }),
    ];
    const gone = planDay(input({ bookable: false, entries: line }));
    expect(gone.ended.map((e) => e.state)).toEqual(['expired', 'expired']);
    const late = planDay(
      input({
        slots: [{ id: 's1', capacity: 2, startsAt: at(4), taken: 0 }],
        entries: line,
      }),
    );
    expect(late.offers).toEqual([]);
    expect(late.ended.map((e) => [e.id, e.state])).toEqual([
      ['2', 'expired'],
      ['1', 'expired'],
    ]);
  });
});
