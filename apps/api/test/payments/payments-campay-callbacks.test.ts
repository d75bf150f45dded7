import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { useCampayApp } from '../support/campay-app-harness.js';
import { initiateBody } from '../support/fixtures.js';
import { statusOf } from '../support/payment-helpers.js';

/** A Campay callback is a prompt: what it claims is never applied as it stands. */
describe('Campay callbacks are only prompts', () => {
  const logLines: string[] = [];
  const h = useCampayApp({
    timeoutMs: 1500,
    env: { LOG_LEVEL: 'info' },
    logStream: { write: (line) => logLines.push(line) },
  });

  const callback = (fields: Record<string, string>) =>
    h.app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/campay?${new URLSearchParams(fields)}`,
    });
  // Another customer's number: one number has one pending payment at most, so the same
  // number would supersede the victim's payment.
  const paidElsewhere = async () => {
    const other = (
      await h.initiate(initiateBody(h.fx, { date: h.nextDate(), phone_number: '677555444' }))
    ).json().payment;
    const tx = h.fake.findByExternalReference(other.payment_id);
    return h.fake.settle(tx?.reference as string, 'SUCCESSFUL');
  };

  it('a callback naming another paid transaction never confirms a payment whose reference we lack', async () => {
    // The collect's answer is lost: the payment has no reference while the prompt is out.
    h.fake.loseNextCollectAnswer();
    const victim = (await h.initiate(initiateBody(h.fx, { date: h.nextDate() }))).json().payment;
    const row = await h.database.db
      .selectFrom('payments')
      .select('provider_reference')
      .where('id', '=', victim.payment_id)
      .executeTakeFirstOrThrow();
    expect(row.provider_reference).toBeNull();
    const paid = await paidElsewhere();
    const fields = await h.fake.callbackFields(paid.reference);
    const res = await callback({ ...fields, external_reference: victim.payment_id });
    // Looked up by our payment id, its own transaction is still PENDING at Campay.
    expect(res.json()).toMatchObject({ outcome: 'still_pending' });
    expect((await statusOf(h.app, victim.payment_id)).status).toBe('PENDING');
  });

  it('a callback naming another transaction is checked against the reference we recorded', async () => {
    const victim = (await h.initiate(initiateBody(h.fx, { date: h.nextDate() }))).json().payment;
    const paid = await paidElsewhere();
    const fields = await h.fake.callbackFields(paid.reference);
    await callback({ ...fields, external_reference: victim.payment_id });
    expect((await statusOf(h.app, victim.payment_id)).status).toBe('PENDING');
  });

  it('refuses signatures whose claims contradict the fields, or that are too old', async () => {
    const { payment } = (await h.initiate(initiateBody(h.fx, { date: h.nextDate() }))).json();
    const tx = h.fake.findByExternalReference(payment.payment_id);
    h.fake.settle(tx?.reference as string, 'SUCCESSFUL');
    const fields = await h.fake.callbackFields(tx?.reference as string);
    const key = new TextEncoder().encode(h.fake.webhookKey);
    const iat = Math.floor(h.clock.now().getTime() / 1000);
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
    const { payment } = (await h.initiate(initiateBody(h.fx, { date: h.nextDate() }))).json();
    const tx = h.fake.findByExternalReference(payment.payment_id);
    h.fake.settle(tx?.reference as string, 'SUCCESSFUL');
    const fields = await h.fake.callbackFields(tx?.reference as string);
    h.fake.transactions.delete(tx?.reference as string);
    const res = await callback(fields);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ outcome: 'unknown_at_provider' });
    expect((await statusOf(h.app, payment.payment_id)).status).toBe('PENDING');
  });

  it('never logs a callback query string', async () => {
    const { payment } = (await h.initiate(initiateBody(h.fx, { date: h.nextDate() }))).json();
    const tx = h.fake.findByExternalReference(payment.payment_id);
    const fields = await h.fake.callbackFields(tx?.reference as string);
    logLines.length = 0;
    await callback(fields);
    const text = logLines.join('');
    expect(text).toContain('/payment/callback/campay');
    expect(text).not.toContain(fields.signature as string);
    expect(text).not.toContain('signature=');
  });
});
