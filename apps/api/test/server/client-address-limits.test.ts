// engines: postgres and pglite — per-address limits are rate counters (in memory on PGlite, upserts on PostgreSQL)
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { useStack } from '../support/app-fixture.js';
import { initiateBody } from '../support/fixtures.js';
import { NO_LIMITS } from '../support/payment-helpers.js';
import { createTestApp } from '../support/test-app.js';

const contact = {
  user_name: 'Mballa Paul',
  user_email: 'paul@example.cm',
  message: 'We would like to join.',
};

describe('client addresses and shared limits', () => {
  // The stack gives the database and the fixture; each test makes its own apps on them, each
  // with the settings under test (the stack's own app is not used).
  const s = useStack({ env: NO_LIMITS });
  const apps: FastifyInstance[] = [];
  const extraDatabases: Database[] = [];
  const appWith = async (env: Record<string, string>, database = s.database) => {
    const { app } = await createTestApp(database, { env: { ...NO_LIMITS, ...env } });
    apps.push(app);
    return app;
  };
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of extraDatabases) await database.close();
  });

  const sendContact = (app: FastifyInstance, remoteAddress: string, xff?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/contact',
      remoteAddress,
      headers: xff ? { 'x-forwarded-for': xff } : {},
      payload: contact,
    });

  // Before: with TRUST_PROXY=true a forged leftmost entry was the counted address, and a
  // client behind the balancer made 12 of 12 contacts past a limit of 5.
  it('counts the rightmost untrusted hop: a forged leftmost entry changes nothing', async () => {
    const app = await appWith({ TRUST_PROXY: '1', RATE_LIMIT_CONTACT_PER_IP: '3' });
    const codes: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      // The balancer (10.0.0.1) appends the real peer; the client wrote the rest.
      const res = await sendContact(app, '10.0.0.1', `6.6.6.${i}, 203.0.113.7`);
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([201, 201, 201, 429, 429]);
    // Another customer behind the same balancer is counted apart.
    expect((await sendContact(app, '10.0.0.1', '6.6.6.6, 203.0.113.8')).statusCode).toBe(201);
  });

  it('with a list of proxies, skips only those and records the client on its hold', async () => {
    const app = await appWith({ TRUST_PROXY: '10.0.0.0/8' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.0.0.5' },
      payload: initiateBody(s.fx, { slotIndex: 5, phone_number: '677444001' }),
    });
    expect(res.statusCode).toBe(201);
    const booking = await s.database.db
      .selectFrom('bookings')
      .select('client_address')
      .where('id', '=', res.json().payment.booking_id)
      .executeTakeFirstOrThrow();
    expect(booking.client_address).toBe('203.0.113.9');
    // Without a trusted proxy the header is ignored: the peer is the client.
    const direct = await appWith({});
    const res2 = await direct.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      remoteAddress: '198.51.100.4',
      headers: { 'x-forwarded-for': '6.6.6.6' },
      payload: initiateBody(s.fx, { slotIndex: 6, phone_number: '677444002' }),
    });
    const booking2 = await s.database.db
      .selectFrom('bookings')
      .select('client_address')
      .where('id', '=', res2.json().payment.booking_id)
      .executeTakeFirstOrThrow();
    expect(booking2.client_address).toBe('198.51.100.4');
  });

  it('counts an IPv6 client by its /64: changing the last 64 bits is the same client', async () => {
    const app = await appWith({ HOLDS_PER_IP_PER_SERVICE: '1' });
    const startFrom = (remoteAddress: string, slotIndex: number, phone: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        remoteAddress,
        payload: initiateBody(s.fx, { slotIndex, phone_number: phone, date: '2026-03-07' }),
      });
    expect((await startFrom('2001:db8:7:7::1', 1, '677444101')).statusCode).toBe(201);
    const again = await startFrom('2001:db8:7:7:abcd::2', 2, '677444102');
    expect(again.json()).toMatchObject({ code: 'TOO_MANY_HOLDS' });
    expect((await startFrom('2001:db8:7:8::1', 3, '677444103')).statusCode).toBe(201);
  });

  // Before: each process counted in its own memory, so two processes allowed twice the limit.
  it('holds a per-address limit in sum over two app instances on one database', async () => {
    const a = await appWith({ RATE_LIMIT_CONTACT_PER_IP: '3' });
    // On PostgreSQL the second instance has its own pool, as a second process would.
    let second = s.database;
    if (s.url) {
      second = await openDatabase({ databaseUrl: s.url, dataDir: null });
      extraDatabases.push(second);
    }
    const b = await appWith({ RATE_LIMIT_CONTACT_PER_IP: '3' }, second);
    const codes = [
      (await sendContact(a, '198.51.100.20')).statusCode,
      (await sendContact(b, '198.51.100.20')).statusCode,
      (await sendContact(a, '198.51.100.20')).statusCode,
      (await sendContact(b, '198.51.100.20')).statusCode,
      (await sendContact(a, '198.51.100.20')).statusCode,
    ];
    expect(codes).toEqual([201, 201, 201, 429, 429]);
    const limited = await sendContact(b, '198.51.100.20');
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
