import { setTimeout } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Bookable, InitiationView } from '../bookings/bookings.service.js';
import {
  type Initiation,
  InitiationQueue,
  type SlotDate,
  settledByRead,
} from './initiation-queue.js';

const slot: SlotDate = { serviceId: 'svc', slotId: 'slot', date: '2026-12-01' };
const bookable: Bookable = {
  service: { id: 'svc', capacity: 1 },
  organization: { id: 'org', name: 'Org', time_zone: 'Africa/Douala', open_days: 127 },
  slotId: 'slot',
  date: '2026-12-01',
};

/** A slot of `capacity` seats whose bookings are the numbers in `holders`. */
function world(capacity: number) {
  const holders: string[] = [];
  const references = new Set<string>();
  const reads: Initiation[][] = [];
  const read = async (
    _slot: SlotDate,
    initiations: readonly Initiation[],
  ): Promise<InitiationView[]> => {
    reads.push([...initiations]);
    await setTimeout(2);
    return initiations.map((initiation) => ({
      bookable: () => bookable,
      takenByOthers: holders.length >= capacity && !holders.includes(initiation.phone),
      seatsFree: Math.max(0, capacity - holders.length),
      knownReference: references.has(initiation.reference),
    }));
  };
  return { holders, references, reads, queue: new InitiationQueue(read) };
}

describe('InitiationQueue', () => {
  it('answers a burst on the last seat with one hold and a few reads, not one read each', async () => {
    const { holders, reads, queue } = world(1);
    let attempts = 0;
    let inside = 0;
    let most = 0;
    const initiate = (i: number) =>
      queue.run(slot, { phone: `p${i}`, reference: `r${i}` }, async (view) => {
        attempts += 1;
        inside += 1;
        most = Math.max(most, inside);
        await setTimeout(3);
        inside -= 1;
        if (view.takenByOthers) throw new Error('taken');
        holders.push(`p${i}`);
        return `p${i}`;
      });
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => initiate(i)));
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter(
      (o) => o.status === 'rejected' && (o.reason as { code?: string }).code === 'SLOT_TAKEN',
    );
    expect({ won: won.length, refused: refused.length, attempts, most }).toEqual({
      won: 1,
      refused: 49,
      attempts: 1,
      most: 1,
    });
    expect(reads.length).toBeLessThanOrEqual(3);
    expect(queue.size).toBe(0);
  });

  it('attempts an initiation whose number holds a seat, or whose reference is known, even when full', async () => {
    const { holders, references, queue } = world(1);
    holders.push('mine');
    references.add('again');
    const attempted: string[] = [];
    const initiate = (phone: string, reference: string) =>
      queue.run(slot, { phone, reference }, async () => {
        attempted.push(`${phone}/${reference}`);
        return 'ok';
      });
    const outcomes = await Promise.allSettled([
      initiate('mine', 'new'),
      initiate('other', 'again'),
      initiate('other', 'fresh'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(attempted.sort()).toEqual(['mine/new', 'other/again']);
  });

  it('attempts as many initiations at once as there are free seats, and reads the rest again', async () => {
    const { holders, reads, queue } = world(2);
    let inside = 0;
    let most = 0;
    const initiate = (i: number) =>
      queue.run(slot, { phone: `p${i}`, reference: `r${i}` }, async (view) => {
        if (view.takenByOthers) throw new Error('attempted on a full slot');
        inside += 1;
        most = Math.max(most, inside);
        await setTimeout(1);
        inside -= 1;
        holders.push(`p${i}`);
        return i;
      });
    const outcomes = await Promise.allSettled([
      initiate(1),
      initiate(2),
      initiate(3),
      initiate(4),
      initiate(5),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'rejected',
    ]);
    expect(most).toBe(2);
    // Read with five waiting (two seats: two attempted), then the three left, refused together.
    expect(reads.map((r) => r.length)).toEqual([5, 3]);
  });

  it('reads at most 500 initiations at once', async () => {
    const { reads, queue } = world(0);
    const initiations = Array.from({ length: 1200 }, (_, i) =>
      queue.run(slot, { phone: `p${i}`, reference: `r${i}` }, async () => i),
    );
    const outcomes = await Promise.allSettled(initiations);
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(reads.map((r) => r.length)).toEqual([500, 500, 200]);
  });

  it('fails every initiation of a read that failed, and goes on with those who came later', async () => {
    let fail = true;
    const queue = new InitiationQueue(async (_slot, initiations) => {
      await setTimeout(1);
      if (fail) {
        fail = false;
        throw new Error('database down');
      }
      return initiations.map(() => ({
        bookable: () => bookable,
        takenByOthers: false,
        seatsFree: 1,
        knownReference: false,
      }));
    });
    const first = queue.run(slot, { phone: 'a', reference: 'a' }, async () => 'a');
    await expect(first).rejects.toThrow('database down');
    await expect(queue.run(slot, { phone: 'b', reference: 'b' }, async () => 'b')).resolves.toBe(
      'b',
    );
  });

  it('refuses from the read alone a slot that cannot be booked or is full; not a replay', () => {
    const closed = new Error('closed');
    const view = (over: Partial<InitiationView>): InitiationView => ({
      bookable: () => bookable,
      takenByOthers: false,
      seatsFree: 1,
      knownReference: false,
      ...over,
    });
    expect(settledByRead(view({}))).toBeNull();
    expect(settledByRead(view({ takenByOthers: true }))).toMatchObject({ code: 'SLOT_TAKEN' });
    const unbookable = view({
      bookable: () => {
        throw closed;
      },
    });
    expect(settledByRead(unbookable)).toBe(closed);
    expect(settledByRead({ ...unbookable, knownReference: true })).toBeNull();
  });
});
