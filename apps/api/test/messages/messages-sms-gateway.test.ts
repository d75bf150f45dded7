import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classify, createAfricasTalkingProvider } from '../../src/providers/sms/africastalking.js';
import type { SmsProvider } from '../../src/providers/sms/provider.js';
import {
  deliveryReportForm,
  type FakeAfricasTalking,
  startFakeAfricasTalking,
} from '../support/africastalking-fake.js';
import { bookAndPay, outboxOf } from '../support/messages-helpers.js';
import { useSimulatorApp } from '../support/simulator-harness.js';

const TO = '+237677123456';

describe("Africa's Talking adapter against a local fake of its API", () => {
  let fake: FakeAfricasTalking;
  let provider: SmsProvider;
  const clock = { now: () => new Date() };

  beforeAll(async () => {
    fake = await startFakeAfricasTalking();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    provider = createAfricasTalkingProvider(
      {
        baseUrl: fake.baseUrl,
        username: fake.username,
        apiKey: fake.apiKey,
        senderId: 'QLESS',
        timeoutMs: 1500,
      },
      { clock },
    );
  });
  afterEach(async () => {
    await provider.close();
  });

  it('sends the documented form and reads an accepted message', async () => {
    const text = 'Qless: booking confirmed. Guichet, Counter 15, Thu, 5 Mar at 09:30.';
    const result = await provider.send({ to: TO, text });
    expect(result).toMatchObject({ ok: true, parts: 1 });
    expect(result.ok && result.providerMessageId).toMatch(/^ATXid_[0-9a-f]{32}$/);
    expect(fake.requests).toEqual([
      { username: fake.username, to: TO, message: text, from: 'QLESS', answer: 'accept' },
    ]);
    expect(provider.capabilities).toEqual({ deliversToPhones: true, idempotentSend: false });
  });

  it('a number the gateway refuses is given up for good; no credit left is tried again', async () => {
    fake.answerNext('invalid_number', 'insufficient_balance', 'do_not_disturb');
    expect(await provider.send({ to: TO, text: 'a' })).toEqual({
      ok: false,
      code: 'AT 403 InvalidPhoneNumber',
      retryable: false,
    });
    expect(await provider.send({ to: TO, text: 'b' })).toEqual({
      ok: false,
      code: 'AT 405 InsufficientBalance',
      retryable: true,
    });
    // The documented answer of the do-not-disturb window: HTTP 409 with the usual body.
    expect(await provider.send({ to: TO, text: 'c' })).toEqual({
      ok: false,
      code: 'AT 409 DoNotDisturbRejection',
      retryable: true,
    });
  });

  it('a 5xx and a refused key are tried again later, and the key is never in the result', async () => {
    fake.answerNext('server_error');
    expect(await provider.send({ to: TO, text: 'a' })).toEqual({
      ok: false,
      code: 'AT HTTP 500',
      retryable: true,
    });
    const wrongKey = createAfricasTalkingProvider(
      {
        baseUrl: fake.baseUrl,
        username: fake.username,
        apiKey: 'atsk_wrong_key_0000',
        senderId: null,
        timeoutMs: 1500,
      },
      { clock },
    );
    const refused = await wrongKey.send({ to: TO, text: 'b' });
    expect(refused).toEqual({ ok: false, code: 'AT HTTP 401', retryable: true });
    expect(JSON.stringify(refused)).not.toContain('atsk_');
    expect(fake.requests.at(-1)).toMatchObject({ answer: 'bad_key', from: null });
  });

  it('gives up waiting after the configured timeout; the message is tried again later', async () => {
    fake.answerNext('hang');
    const started = Date.now();
    const result = await provider.send({ to: TO, text: 'a' });
    const took = Date.now() - started;
    expect(result).toEqual({ ok: false, code: 'AT timeout after 1500 ms', retryable: true });
    expect(took).toBeGreaterThanOrEqual(1450);
    expect(took).toBeLessThan(5000);
  });

  it('a gateway that cannot be reached is tried again later', async () => {
    const nowhere = createAfricasTalkingProvider(
      {
        baseUrl: 'http://127.0.0.1:9',
        username: 'u',
        apiKey: 'k'.repeat(10),
        senderId: null,
        timeoutMs: 2000,
      },
      { clock },
    );
    expect(await nowhere.send({ to: TO, text: 'a' })).toMatchObject({
      ok: false,
      retryable: true,
      code: expect.stringMatching(/^AT network error/),
    });
  });

  it('reads answers the documentation leaves open the safe way', () => {
    // Created, yet no recipient says what happened: it may have gone out; never sent again.
    expect(classify(201, null, TO)).toEqual({
      ok: false,
      code: 'AT 201 unreadable answer',
      retryable: false,
    });
    // A whole request refused for our sender id: nothing went out; fixed, it will.
    expect(
      classify(201, { SMSMessageData: { Message: 'InvalidSenderId', Recipients: [] } }, TO),
    ).toEqual({ ok: false, code: 'AT 201 InvalidSenderId', retryable: true });
    // A held message is not sent again (the gateway may release it).
    const held = {
      SMSMessageData: { Recipients: [{ statusCode: 401, status: 'RiskHold', number: TO }] },
    };
    expect(classify(201, held, TO)).toMatchObject({ retryable: false, code: 'AT 401 RiskHold' });
    // Free text is never stored: only a bare status word.
    const odd = { SMSMessageData: { Recipients: [{ statusCode: 499, status: `Bad ${TO}` }] } };
    expect(classify(201, odd, TO)).toEqual({ ok: false, code: 'AT 499 unknown', retryable: true });
    expect(classify(400, null, TO)).toEqual({ ok: false, code: 'AT HTTP 400', retryable: false });
    expect(classify(503, null, TO)).toMatchObject({ retryable: true });
    expect(
      classify(
        201,
        {
          SMSMessageData: {
            Recipients: [{ statusCode: '102', status: 'Queued', messageId: 'x1' }],
          },
        },
        TO,
      ),
    ).toEqual({ ok: true, providerMessageId: 'x1', parts: null });
  });
});

// Running before the block is collected: useSimulatorApp takes its env as it is called.
const outboxGateway = await startFakeAfricasTalking();
afterAll(async () => {
  await outboxGateway.close();
});

describe("SMS through Africa's Talking from the outbox", () => {
  const fake = outboxGateway;
  const env: Record<string, string> = {
    SMS_PROVIDER: 'africastalking',
    AFRICASTALKING_BASE_URL: fake.baseUrl,
    AFRICASTALKING_USERNAME: fake.username,
    AFRICASTALKING_API_KEY: fake.apiKey,
    SMS_TIMEOUT_MS: '300',
    SMS_MAX_ATTEMPTS: '3',
    SMS_RETRY_BASE_MS: '60000',
    // The tests sweep by hand, on the pinned clock.
    OUTBOX_WORKER_INTERVAL_MS: '3600000',
    REMINDERS_ENABLED: 'false',
  };
  const h = useSimulatorApp({ env });
  const sweep = () => {
    const worker = h.app.messaging.worker;
    if (!worker) throw new Error('no outbox worker');
    return worker.sweep();
  };
  const sms = async (bookingId: string) =>
    (await outboxOf(h.database, bookingId)).filter((r) => r.channel === 'sms');

  it('retries with growing waits, then the gateway takes it once', async () => {
    const { bookingId } = await bookAndPay(h);
    fake.answerNext('server_error', 'hang');
    expect(await sweep()).toMatchObject({ sent: 0, failed: 1 });
    let [row] = await sms(bookingId);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'AT HTTP 500' });
    expect(row?.next_attempt_at?.getTime()).toBe(h.clock.now().getTime() + 60_000);
    // The text it tried is kept with the row (the SMS carries the ticket's short link).
    expect(row?.text_body).toMatch(/http:\/\/qless\.test\/t\/[0-9A-Z]{12}$/);

    h.clock.advance(59_000);
    expect(await sweep()).toMatchObject({ sent: 0, failed: 0 });
    h.clock.advance(1_000);
    // This time the gateway does not answer: the adapter gives up after 300 ms.
    expect(await sweep()).toMatchObject({ sent: 0, failed: 1 });
    [row] = await sms(bookingId);
    expect(row).toMatchObject({ attempts: 2, last_error: 'AT timeout after 300 ms' });
    expect(row?.next_attempt_at?.getTime()).toBe(h.clock.now().getTime() + 120_000);

    h.clock.advance(120_000);
    expect(await sweep()).toMatchObject({ sent: 1, failed: 0, gaveUp: 0 });
    [row] = await sms(bookingId);
    expect(row).toMatchObject({
      status: 'sent',
      attempts: 3,
      provider: 'africastalking',
      last_error: null,
      next_attempt_at: null,
    });
    expect(row?.provider_message_id).toMatch(/^ATXid_/);
    const delivered = fake.requests.filter(
      (r) => r.to === '+237677123456' && r.answer === 'accept',
    );
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.message).toBe(row?.text_body);
    h.clock.advance(3_600_000);
    await sweep();
    expect(fake.requests.filter((r) => r.answer === 'accept')).toHaveLength(1);
    // With no SMTP server the e-mail waits in the outbox, never claimed, as account mail does.
    const email = (await outboxOf(h.database, bookingId)).find((r) => r.channel === 'email');
    expect(email).toMatchObject({ status: 'pending', attempts: 0, text_body: null });
  });

  it('gives up after SMS_MAX_ATTEMPTS and says why; a refused number at once', async () => {
    const failing = await bookAndPay(h, { phone_number: '677000111' });
    fake.answerNext('server_error', 'server_error', 'server_error');
    for (let i = 0; i < 3; i += 1) {
      await sweep();
      h.clock.advance(3_600_000);
    }
    const [given] = await sms(failing.bookingId);
    expect(given).toMatchObject({
      status: 'failed',
      attempts: 3,
      next_attempt_at: null,
      last_error: 'AT HTTP 500',
    });
    expect(given?.sent_at).toBeNull();
    await sweep();
    expect(fake.requests.filter((r) => r.to === '+237677000111')).toHaveLength(3);

    const refused = await bookAndPay(h, { phone_number: '677000222' });
    fake.answerNext('invalid_number');
    expect(await sweep()).toMatchObject({ gaveUp: 1 });
    const [row] = await sms(refused.bookingId);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'AT 403 InvalidPhoneNumber (permanent)',
    });
  });

  it('records the delivery reports the gateway posts: delivered, failed, or still unknown', async () => {
    const secret = await h.database.db
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', 'sms_delivery_path_secret')
      .executeTakeFirstOrThrow();
    const report = (path: string, form: string) =>
      h.app.inject({
        method: 'POST',
        url: `/api/v1/sms/delivery/${path}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form,
      });
    const { bookingId } = await bookAndPay(h, { phone_number: '677000333' });
    await sweep();
    const message = fake.accepted.find((m) => m.to === '+237677000333');
    if (!message) throw new Error('the gateway took no SMS to +237677000333');
    const delivery = async () => {
      const [row] = await sms(bookingId);
      return { delivery: row?.delivery ?? null, at: row?.delivered_at ?? null };
    };
    // On its way: nothing known yet, and said so.
    const buffered = await report(secret.value, deliveryReportForm(message, 'Buffered'));
    expect(buffered.json()).toEqual({ ok: true, recorded: false });
    expect(await delivery()).toEqual({ delivery: null, at: null });
    // A wrong secret is no such route.
    const wrong = await report('x'.repeat(43), deliveryReportForm(message, 'Success'));
    expect(wrong.statusCode).toBe(404);
    expect((await delivery()).delivery).toBeNull();
    const success = await report(secret.value, deliveryReportForm(message, 'Success'));
    expect(success.json()).toEqual({ ok: true, recorded: true });
    expect(await delivery()).toEqual({ delivery: 'delivered', at: h.clock.now() });
    // A later report does not undo it.
    await report(secret.value, deliveryReportForm(message, 'Failed', 'UserInBlacklist'));
    expect((await delivery()).delivery).toBe('delivered');

    const refused = await bookAndPay(h, { phone_number: '677000444' });
    await sweep();
    const lost = fake.accepted.find((m) => m.to === '+237677000444');
    if (!lost) throw new Error('the gateway took no SMS to +237677000444');
    await report(secret.value, deliveryReportForm(lost, 'Failed', 'UserInBlacklist'));
    const [row] = await sms(refused.bookingId);
    expect(row).toMatchObject({
      status: 'sent',
      delivery: 'failed',
      last_error: 'not delivered: UserInBlacklist',
    });
  });
});
