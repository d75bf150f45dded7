import { describe, expect, it } from 'vitest';
import { useStack } from './support/app-fixture.js';
import { initiateBody } from './support/fixtures.js';

describe('who may hold seats', () => {
  const s = useStack({
    env: {
      RATE_LIMIT_INITIATE_PER_IP: '1000',
      RATE_LIMIT_INITIATE_PER_PHONE: '2',
      HOLDS_PER_IP: '1000',
      HOLDS_PER_IP_PER_SERVICE: '3',
      SIMULATOR_DELAY_MS: '600000',
    },
  });

  const start = (address: string, slotIndex: number, phone: string, date = '2026-03-05') =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      remoteAddress: address,
      payload: initiateBody(s.fx, { slotIndex, phone_number: phone, date }),
    });
  const paymentsOf = (phone: string) =>
    s.database.db
      .selectFrom('payments as p')
      .innerJoin('bookings as b', 'b.id', 'p.booking_id')
      .select(['p.status', 'p.failure_code', 'b.status as booking_status'])
      .where('p.phone_number', '=', `+237${phone}`)
      // The pinned clock gives every payment the same created_at: order by outcome.
      .orderBy('p.status')
      .execute();

  // Before: five starts with a victim's number from anywhere locked the number for 15 minutes.
  it('five starts with a victim’s number do not lock the victim out', async () => {
    const victim = '677555001';
    const codes: number[] = [];
    for (const slotIndex of [1, 2, 3, 4, 5]) {
      codes.push((await start('198.51.100.66', slotIndex, victim, '2026-03-06')).statusCode);
    }
    // From its own address the attacker meets the per-phone limit (2 slot-dates)...
    expect(codes).toEqual([201, 201, 429, 429, 429]);
    // ...the victim, elsewhere, does not, and its start replaces the attacker's hold.
    const mine = await start('203.0.113.10', 6, victim, '2026-03-06');
    expect(mine.statusCode).toBe(201);
    const rows = await paymentsOf(victim);
    expect(rows.map((r) => [r.status, r.failure_code, r.booking_status])).toEqual([
      ['FAILED', 'SUPERSEDED', 'cancelled'],
      ['FAILED', 'SUPERSEDED', 'cancelled'],
      ['PENDING', null, 'held'],
    ]);
  });

  it('a start on a full slot is refused before anything else: the number keeps its payment elsewhere, and its own hold does not count against it', async () => {
    const phone = '677555020';
    expect((await start('203.0.113.40', 30, phone, '2026-03-09')).statusCode).toBe(201);
    expect((await start('203.0.113.41', 31, '677555021', '2026-03-09')).statusCode).toBe(201);
    const refused = await start('203.0.113.40', 31, phone, '2026-03-09');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'SLOT_TAKEN' });
    // The refused start replaced nothing: the number's hold on the other slot still stands.
    expect((await paymentsOf(phone)).map((r) => [r.status, r.booking_status])).toEqual([
      ['PENDING', 'held'],
    ]);
    // The number's own hold fills its slot, yet its new start there goes through (and replaces it).
    expect((await start('203.0.113.40', 30, phone, '2026-03-09')).statusCode).toBe(201);
    const rows = await paymentsOf(phone);
    expect(rows.map((r) => [r.status, r.booking_status])).toEqual([
      ['FAILED', 'cancelled'],
      ['PENDING', 'held'],
    ]);
  });

  it('a repeat of the same slot is what the customer meant and does not count', async () => {
    const phone = '677555002';
    const address = '203.0.113.20';
    expect((await start(address, 10, phone)).statusCode).toBe(201);
    expect((await start(address, 11, phone)).statusCode).toBe(201);
    // Back to the first slot: the earlier hold is replaced, the slot taken again.
    expect((await start(address, 10, phone)).statusCode).toBe(201);
    expect((await start(address, 10, phone)).statusCode).toBe(201);
    const third = await start(address, 12, phone);
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ code: 'RATE_LIMITED' });
    const rows = await paymentsOf(phone);
    expect(rows.filter((r) => r.status === 'PENDING')).toHaveLength(1);
  });

  // Before: one client held every slot-date of a service with numbers ending 999.
  it('caps live holds per client address and service with 429 TOO_MANY_HOLDS', async () => {
    const address = '198.51.100.77';
    const codes: number[] = [];
    for (const [i, slotIndex] of [20, 21, 22, 23].entries()) {
      codes.push((await start(address, slotIndex, `67766600${i}`)).statusCode);
    }
    expect(codes).toEqual([201, 201, 201, 429]);
    const over = await start(address, 24, '677666009');
    expect(over.json()).toMatchObject({ code: 'TOO_MANY_HOLDS' });
    // Another client is not affected.
    expect((await start('203.0.113.30', 25, '677666010')).statusCode).toBe(201);
    // A hold that ends (here: replaced) no longer counts.
    expect((await start('203.0.113.31', 26, '677666000')).statusCode).toBe(201);
    expect((await start(address, 27, '677666011')).statusCode).toBe(201);
  });

  // On PostgreSQL the burst runs in parallel transactions: without the phone lock and the
  // re-check under it, several starts for one number would each leave a pending payment.
  it('leaves one pending payment per number under a burst', async () => {
    const phone = '677999888';
    const codes = await Promise.all(
      [30, 31, 32, 33, 34, 35, 36, 37].map(
        async (slotIndex) => (await start(`203.0.113.${slotIndex}`, slotIndex, phone)).statusCode,
      ),
    );
    expect(codes.every((c) => c === 201 || c === 409)).toBe(true);
    const rows = await paymentsOf(phone);
    expect(rows.filter((r) => r.status === 'PENDING')).toHaveLength(1);
    expect(rows.filter((r) => r.booking_status === 'held')).toHaveLength(1);
  });
});
