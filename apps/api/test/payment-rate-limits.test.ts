import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, initiateBody } from './support/fixtures.js';
import { createTestApp, PINNED_NOW } from './support/test-app.js';
import { createTestDatabase, engines, type TestDatabase } from './support/test-db.js';

describe.each(engines)('rate limits on payment initiation on %s', (engine) => {
  let tdb: TestDatabase;
  let app: FastifyInstance;
  let fx: Fixture;
  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    ({ app } = await createTestApp(tdb.database, {
      env: {
        RATE_LIMIT_INITIATE_PER_IP: '4',
        RATE_LIMIT_INITIATE_PER_PHONE: '2',
        SIMULATOR_DELAY_MS: '600000',
      },
    }));
    fx = await createFixture(tdb.database, new Date(PINNED_NOW));
  });
  afterAll(async () => {
    await app?.close();
    await tdb?.cleanup();
  });

  // On PostgreSQL the burst runs in parallel transactions: without the per-phone lock in
  // initiate, several of them count the same earlier payments and more than 2 get through.
  it('holds the per-phone limit under a burst', async () => {
    const burstApp = (
      await createTestApp(tdb.database, {
        env: {
          RATE_LIMIT_INITIATE_PER_IP: '1000',
          RATE_LIMIT_INITIATE_PER_PHONE: '2',
          SIMULATOR_DELAY_MS: '600000',
        },
      })
    ).app;
    try {
      const codes = await Promise.all(
        [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31].map(
          async (slotIndex) =>
            (
              await burstApp.inject({
                method: 'POST',
                url: '/api/v1/payment/initiate',
                payload: initiateBody(fx, { slotIndex, phone_number: '677999888' }),
              })
            ).statusCode,
        ),
      );
      expect(codes.filter((c) => c === 201)).toHaveLength(2);
      expect(codes.filter((c) => c === 429)).toHaveLength(10);
    } finally {
      await burstApp.close();
    }
  });

  it('limits per phone number, then per IP, with 429 RATE_LIMITED', async () => {
    const send = (slotIndex: number, phone: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        payload: initiateBody(fx, { slotIndex, phone_number: phone }),
      });
    expect((await send(1, '677111111')).statusCode).toBe(201);
    expect((await send(2, '677111111')).statusCode).toBe(201);
    const third = await send(3, '677111111');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await send(4, '677222222')).statusCode).toBe(201);
    const overIp = await send(5, '677333333');
    expect(overIp.statusCode).toBe(429);
    expect(overIp.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
