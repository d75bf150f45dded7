import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../src/clock.js';
import { createCampayProvider } from '../src/providers/campay.js';
import { type FakeCampay, startFakeCampay } from './support/campay-fake.js';
import { createFixture, type Fixture, initiateBody } from './support/fixtures.js';
import { NO_LIMITS as LIMITS, statusOf } from './support/payment-helpers.js';
import { createTestApp, PINNED_NOW } from './support/test-app.js';
import { createTestDatabase, engines, type TestDatabase } from './support/test-db.js';

/** A Campay callback is a prompt: what it claims is never applied as it stands. */
describe.each(engines)('Campay callbacks are only prompts, on %s', (engine) => {
  let tdb: TestDatabase;
  let app: FastifyInstance;
  let clock: FixedClock;
  let fake: FakeCampay;
  let fx: Fixture;
  const logLines: string[] = [];
  let day = 4;
  const nextDate = () => `2026-03-${String(++day).padStart(2, '0')}`;

  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    clock = new FixedClock(PINNED_NOW);
    fake = await startFakeCampay({ now: () => clock.now() });
    const provider = createCampayProvider(
      {
        baseUrl: fake.baseUrl,
        username: 'qless-app',
        password: 'qless-secret',
        webhookKey: fake.webhookKey,
        timeoutMs: 300,
      },
      { now: () => clock.now() },
    );
    ({ app } = await createTestApp(tdb.database, {
      clock,
      provider,
      env: { ...LIMITS, LOG_LEVEL: 'info' },
      logStream: { write: (line) => logLines.push(line) },
    }));
    fx = await createFixture(tdb.database, clock.now());
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    await tdb?.cleanup();
  });

  const initiate = (body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/v1/payment/initiate', payload: body });
  const callback = (fields: Record<string, string>) =>
    app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/campay?${new URLSearchParams(fields)}`,
    });
  // Another customer's paid transaction: another number, since a second start from the
  // victim's number would replace the victim's pending payment.
  const paidElsewhere = async () => {
    const other = (
      await initiate(initiateBody(fx, { date: nextDate(), phone_number: '+237699555111' }))
    ).json().payment;
    const tx = fake.findByExternalReference(other.payment_id);
    return fake.settle(tx?.reference as string, 'SUCCESSFUL');
  };

  it('a callback naming another paid transaction never confirms a payment whose reference we lack', async () => {
    // The collect's answer is lost: the payment has no reference while the prompt is out.
    fake.loseNextCollectAnswer();
    const victim = (await initiate(initiateBody(fx, { date: nextDate() }))).json().payment;
    const row = await tdb.database.db
      .selectFrom('payments')
      .select('provider_reference')
      .where('id', '=', victim.payment_id)
      .executeTakeFirstOrThrow();
    expect(row.provider_reference).toBeNull();
    const paid = await paidElsewhere();
    const fields = await fake.callbackFields(paid.reference);
    const res = await callback({ ...fields, external_reference: victim.payment_id });
    // Looked up by our payment id, its own transaction is still PENDING at Campay.
    expect(res.json()).toMatchObject({ outcome: 'still_pending' });
    expect((await statusOf(app, victim.payment_id)).status).toBe('PENDING');
  });

  it('a callback naming another transaction is checked against the reference we recorded', async () => {
    const victim = (await initiate(initiateBody(fx, { date: nextDate() }))).json().payment;
    const paid = await paidElsewhere();
    const fields = await fake.callbackFields(paid.reference);
    await callback({ ...fields, external_reference: victim.payment_id });
    expect((await statusOf(app, victim.payment_id)).status).toBe('PENDING');
  });

  it('refuses signatures whose claims contradict the fields, or that are too old', async () => {
    const { payment } = (await initiate(initiateBody(fx, { date: nextDate() }))).json();
    const tx = fake.findByExternalReference(payment.payment_id);
    fake.settle(tx?.reference as string, 'SUCCESSFUL');
    const fields = await fake.callbackFields(tx?.reference as string);
    const key = new TextEncoder().encode(fake.webhookKey);
    const iat = Math.floor(clock.now().getTime() / 1000);
    const claiming = await new SignJWT({ source: 'CamPay', external_reference: 'someone-else' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(iat)
      .sign(key);
    expect((await callback({ ...fields, signature: claiming })).statusCode).toBe(401);
    const old = await new SignJWT({ source: 'CamPay' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(iat - 3600)
      .sign(key);
    expect((await callback({ ...fields, signature: old })).statusCode).toBe(401);
    expect((await callback(fields)).json()).toMatchObject({ outcome: 'confirmed' });
  });

  it('a reference Campay does not know gets an answer, not 503 forever', async () => {
    const { payment } = (await initiate(initiateBody(fx, { date: nextDate() }))).json();
    const tx = fake.findByExternalReference(payment.payment_id);
    fake.settle(tx?.reference as string, 'SUCCESSFUL');
    const fields = await fake.callbackFields(tx?.reference as string);
    fake.transactions.delete(tx?.reference as string);
    const res = await callback(fields);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ outcome: 'unknown_at_provider' });
    expect((await statusOf(app, payment.payment_id)).status).toBe('PENDING');
  });

  it('never logs a callback query string', async () => {
    const { payment } = (await initiate(initiateBody(fx, { date: nextDate() }))).json();
    const tx = fake.findByExternalReference(payment.payment_id);
    const fields = await fake.callbackFields(tx?.reference as string);
    logLines.length = 0;
    await callback(fields);
    const text = logLines.join('');
    expect(text).toContain('/payment/callback/campay');
    expect(text).not.toContain(fields.signature as string);
    expect(text).not.toContain('signature=');
  });
});
