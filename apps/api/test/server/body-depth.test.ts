import { describe, expect, it } from 'vitest';
import { useSimulatorApp } from '../support/simulator-harness.js';

const nested = (levels: number, inner = '1') =>
  `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

// Issue 18, point 15: 3,000 levels of JSON sent to a callback route overflowed the stack of
// the callback's encoding check (500). Every JSON body is now bounded before any walk.
describe('the nesting depth of request bodies', () => {
  const h = useSimulatorApp();
  const post = (url: string, payload: string) =>
    h.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload,
      remoteAddress: '10.40.0.1',
    });

  it('a callback with 5,000 levels is a 400 BODY_TOO_DEEP, never a 500, and stores nothing', async () => {
    const before = await h.database.db
      .selectFrom('payment_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    for (const payload of [
      `{"status":"SUCCESSFUL","signature":"x","deep":${nested(5000)}}`,
      nested(5000),
      `{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
    ]) {
      const res = await post('/api/v1/payment/callback/simulator', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BODY_TOO_DEEP' });
    }
    const after = await h.database.db
      .selectFrom('payment_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('any other route too: a contact request with 5,000 levels in an extra field is a 400', async () => {
    const res = await post(
      '/api/v1/contact',
      `{"user_name":"Banque","user_email":"a@b.cm","message":"hi","extra":${nested(5000)}}`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BODY_TOO_DEEP' });
  });

  it('32 levels pass, brackets inside strings do not count, and malformed JSON is still a 400', async () => {
    const ok = await post(
      '/api/v1/contact',
      `{"user_name":"Banque","user_email":"a@b.cm","message":"${'['.repeat(200)}","extra":${nested(30)}}`,
    );
    expect(ok.statusCode).toBe(201);
    const malformed = await post('/api/v1/contact', '{"user_name":');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('VALIDATION_FAILED');
    const empty = await post('/api/v1/contact', '');
    expect(empty.statusCode).toBe(400);
  });
});
