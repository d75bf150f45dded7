// also with redis — the limiter's counters in Redis
// engines: postgres and pglite — lookup limits are rate counters (in memory on PGlite, upserts on PostgreSQL)
import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { signedIn } from '../support/auth-helpers.js';
import { NO_LIMITS } from '../support/payment-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

describe('ticket look-ups', () => {
  const s = useStack({
    env: { ...NO_LIMITS, RATE_LIMIT_TICKET_PER_IP: '3', RATE_LIMIT_TICKET_GLOBAL: '5' },
  });
  let staff: { authorization: string };
  beforeAll(async () => {
    ({ headers: staff } = await signedIn(s.app, s.database.db, {
      email: 'counter@guichet.cm',
      role: 'staff',
      organizationId: s.fx.orgId,
    }));
  });

  const lookUp = (code: string, remoteAddress: string) =>
    s.app.inject({ method: 'GET', url: `/api/v1/tickets/${code}`, remoteAddress });
  const verify = (remoteAddress: string) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/tickets/verify',
      remoteAddress,
      headers: staff,
      payload: { token: 'not.a.token' },
    });

  it('still finds a ticket with a code of the old, shorter form, and reveals nothing personal', async () => {
    await s.database.db
      .insertInto('bookings')
      .values({
        organization_id: s.fx.orgId,
        service_id: s.fx.serviceId,
        slot_id: s.fx.slotIds[8] ?? '',
        booking_date: '2026-03-05',
        seat: 1,
        status: 'confirmed',
        cus_name: 'Atangana Joseph',
        cus_email: 'joseph@example.cm',
        phone_number: '+237677000321',
        ticket_code: 'QL-7K4M-2Q',
        confirmed_at: new Date(PINNED_NOW),
      })
      .execute();
    const res = await lookUp('ql-7k4m-2q', '198.51.100.1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.json().ticket).sort()).toEqual(
      [
        'code',
        'date',
        'location',
        'organization',
        'service',
        // The service's French name, for a reader in French (issue 18, point 4).
        'service_fr',
        'status',
        'time',
        'time_zone',
      ].sort(),
    );
    expect(res.body).not.toMatch(/Atangana|joseph|000321|token/);
  });

  // Before: 3,000 guesses at ~500/s went through unlimited.
  it('limits look-ups per client, then for everyone, in the database', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      codes.push((await lookUp('QL-2222-2222-2222', '198.51.100.2')).statusCode);
    }
    // The first address had 1 look-up in the test above; this one gets its own 3.
    expect(codes).toEqual([404, 404, 404, 429]);
    // Everyone together: 1 + 3 counted so far (the refused one was not), ceiling 5.
    expect((await lookUp('QL-2222-2222-2223', '198.51.100.3')).statusCode).toBe(404);
    const refused = await lookUp('QL-2222-2222-2224', '198.51.100.4');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Verifications count apart, so a flood of guesses does not stop check-ins.
    expect((await verify('198.51.100.5')).statusCode).toBe(200);
  });

  it('limits verifications per client', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i += 1) codes.push((await verify('198.51.100.6')).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
  });
});
