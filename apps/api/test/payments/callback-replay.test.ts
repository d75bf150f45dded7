import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signSimulatorCallback } from '../../src/providers/simulator.js';
import { useCampayApp } from '../support/campay-app-harness.js';
import { initiateBody } from '../support/fixtures.js';
import { simulatorSuccessFields } from '../support/payment-helpers.js';
import { useSimulatorApp } from '../support/simulator-harness.js';

const MINUTE = 60_000;

// Issue 18, point 16: a captured callback signature never expired, and each replay with an
// unknown reference stored a row.
describe("the simulator's callback signatures expire", () => {
  const h = useSimulatorApp();

  const signedFields = (paymentId: string) => simulatorSuccessFields(h.database.db, paymentId);
  const send = (query: Record<string, string>) =>
    h.app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/simulator?${new URLSearchParams(query)}`,
    });

  it('a signature issued 16 minutes ago, or without an issue time, is a 401; a fresh one settles', async () => {
    const started = await h.initiate(initiateBody(h.fx, { date: h.nextDate() }));
    const id = started.json().payment.payment_id as string;
    const { fields, key } = await signedFields(id);
    const old = await signSimulatorCallback(
      key,
      fields,
      new Date(h.clock.now().getTime() - 16 * MINUTE),
    );
    const aged = await send({ ...fields, signature: old });
    expect(aged.statusCode).toBe(401);
    expect(aged.json().code).toBe('INVALID_SIGNATURE');
    const undated = await new SignJWT({ ...fields })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(key));
    expect((await send({ ...fields, signature: undated })).statusCode).toBe(401);

    const fresh = await signSimulatorCallback(key, fields, h.clock.now());
    const settled = await send({ ...fields, signature: fresh });
    expect(settled.statusCode).toBe(200);
    expect(settled.json()).toMatchObject({ outcome: 'confirmed' });
  });
});

describe('Campay callbacks about no payment of ours are stored within the budget', () => {
  const h = useCampayApp({ timeoutMs: 1500 });

  it('a young signature replayed with 15 made-up references is answered each time and stored at most 10 times', async () => {
    const { payment } = (await h.initiate(initiateBody(h.fx, { date: h.nextDate() }))).json();
    const tx = h.fake.findByExternalReference(payment.payment_id);
    h.fake.settle(tx?.reference as string, 'SUCCESSFUL');
    const fields = await h.fake.callbackFields(tx?.reference as string);
    for (let i = 0; i < 15; i += 1) {
      const res = await h.app.inject({
        method: 'GET',
        url: `/api/v1/payment/callback/campay?${new URLSearchParams({
          ...fields,
          reference: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          external_reference: '',
        })}`,
        remoteAddress: '10.50.0.1',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ outcome: 'unknown_payment' });
    }
    const stored = await h.database.db
      .selectFrom('payment_events')
      .select('id')
      .where('outcome', '=', 'unknown_payment')
      .execute();
    expect(stored.length).toBe(10);
  });
});
