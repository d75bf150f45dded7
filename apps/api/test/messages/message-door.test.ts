import { describe, expect, it } from 'vitest';
import { queueCustomerMessage } from '../../src/modules/messages/messages.module.js';
import { queueSms } from '../../src/modules/outbox/outbox.module.js';
import { useStack } from '../support/app-fixture.js';
import { outboxWorker } from '../support/messages-helpers.js';

const MINUTE = 60_000;

/**
 * The one door of customers' messages and what the worker makes of them (decision 140): a
 * dedupe key queues once, a message past its useful time is recorded skipped ("too late"),
 * and one number is sent at most SMS_PER_RECIPIENT_PER_DAY customer SMS in 24 hours (the
 * `messages-per-recipient` limit), turns and confirmations apart; staff SMS are not counted.
 */
describe('the door of customer messages', () => {
  const s = useStack({
    env: { OUTBOX_WORKER_INTERVAL_MS: '3600000', SMS_PER_RECIPIENT_PER_DAY: '3' },
    fixture: false,
  });
  const worker = () => outboxWorker(s.app);
  const db = () => s.database.db;
  let n = 0;
  const answer = (to: string, text = 'Qless: HELP') =>
    queueCustomerMessage(
      db(),
      {
        kind: 'queue_sms_answer',
        organizationId: null,
        channel: 'sms',
        to,
        locale: 'en',
        dedupeKey: `sms-in:test-${++n}`,
        written: { subject: 'SMS answer (help)', text },
      },
      s.clock.now(),
    );
  /** "Go to the counter" for visit `visit`, queued now. */
  const called = (to: string, visit: string) =>
    queueCustomerMessage(
      db(),
      {
        kind: 'queue_called',
        organizationId: null,
        channel: 'sms',
        to,
        locale: 'en',
        dedupeKey: `visit:${visit}:called:1`,
        written: { subject: 'Queue (called)', text: 'A-002: Go to Counter 1.' },
      },
      s.clock.now(),
    );
  const rowsTo = (to: string) =>
    db()
      .selectFrom('outbox')
      .select(['kind', 'status', 'last_error', 'provider', 'useful_until', 'next_attempt_at'])
      .where('to_address', '=', to)
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  it('queues a dedupe key once, with its useful time from its kind', async () => {
    const now = s.clock.now();
    const call = {
      kind: 'queue_called' as const,
      organizationId: null,
      channel: 'sms' as const,
      to: '+237677200001',
      locale: 'fr' as const,
      dedupeKey: 'visit:door-test:called:1',
      written: {
        subject: 'Queue A-001 (called)',
        text: "A-001 : c'est à vous ! Allez au Guichet 1.",
      },
    };
    expect(await queueCustomerMessage(db(), call, now)).toBe(true);
    expect(await queueCustomerMessage(db(), call, now)).toBe(false);
    const [row] = await rowsTo('+237677200001');
    expect(row?.useful_until?.getTime()).toBe(now.getTime() + 10 * MINUTE);
    // A writer that knows its own end (a waitlist offer's hold) gives it.
    const offerEnds = new Date(now.getTime() + 15 * MINUTE);
    await queueCustomerMessage(
      db(),
      {
        kind: 'waitlist_offer',
        organizationId: null,
        channel: 'sms',
        to: '+237677200002',
        locale: 'en',
        dedupeKey: 'waitlist:door-test:offer',
        written: { subject: 'Waitlist offer', text: 'Seat free.' },
        usefulUntil: offerEnds,
        timeZone: 'Africa/Douala',
      },
      now,
    );
    expect((await rowsTo('+237677200002'))[0]?.useful_until?.getTime()).toBe(offerEnds.getTime());
    await worker().sweep();
    expect((await rowsTo('+237677200001')).map((r) => r.status)).toEqual(['sent']);
  });

  it('records a message that could not leave in its useful time as skipped, "too late"', async () => {
    const to = '+237677200003';
    await called(to, 'door-late');
    // The gateway was unreachable for 11 minutes (no sweep ran): the call is over by then.
    s.clock.advance(11 * MINUTE);
    const result = await worker().sweep();
    expect(result.skipped).toBeGreaterThanOrEqual(1);
    expect(await rowsTo(to)).toMatchObject([
      { status: 'skipped', last_error: 'too late', provider: null },
    ]);
  });

  it('holds a feedback request queued at 21:30 until 07:00 in the organization’s zone, not a call', async () => {
    // 21:30 in Douala (UTC+1).
    s.clock.set('2026-03-04T20:30:00Z');
    const to = '+237677200006';
    const feedback = {
      kind: 'visit_feedback' as const,
      organizationId: null,
      channel: 'sms' as const,
      to,
      locale: 'fr' as const,
      dedupeKey: 'visit:door-quiet:feedback',
      written: { subject: 'Feedback A-003', text: 'Merci de votre visite !' },
    };
    // A kind held in quiet hours needs its organization's zone: a writer that forgot it fails.
    await expect(queueCustomerMessage(db(), feedback, s.clock.now())).rejects.toThrow(/zone/);
    await queueCustomerMessage(db(), { ...feedback, timeZone: 'Africa/Douala' }, s.clock.now());
    await called(to, 'door-quiet');
    await worker().sweep();
    const rows = await rowsTo(to);
    const held = rows.find((r) => r.kind === 'visit_feedback');
    const turn = rows.find((r) => r.kind === 'queue_called');
    expect(turn).toMatchObject({ kind: 'queue_called', status: 'sent' });
    expect(held).toMatchObject({ kind: 'visit_feedback', status: 'pending' });
    expect(held?.next_attempt_at?.toISOString()).toBe('2026-03-05T06:00:00.000Z');
    // Useful for a day from 07:00, not from 21:30.
    expect(held?.useful_until?.toISOString()).toBe('2026-03-06T06:00:00.000Z');
    s.clock.set('2026-03-05T06:00:00Z');
    await worker().sweep();
    expect((await rowsTo(to)).find((r) => r.kind === 'visit_feedback')?.status).toBe('sent');
  });

  it('sends one number at most the cap of customer SMS in 24 hours; staff SMS, turns and other numbers pass', async () => {
    const to = '+237677200004';
    // A staff SMS sent first is not counted.
    await queueSms(
      db(),
      { to, subject: 'Invitation', text: 'You are invited', kind: 'invitation' },
      s.clock.now(),
    );
    await worker().sweep();
    s.clock.advance(1000);
    for (let i = 0; i < 5; i++) {
      expect(await answer(to)).toBe(true);
      // One second apart: the worker sends the oldest first.
      s.clock.advance(1000);
    }
    await answer('+237677200005');
    // A turn is never held back by the cap (the branch bounds it: one per call).
    await called(to, 'door-cap');
    await worker().sweep();
    const rows = await rowsTo(to);
    const customer = rows.filter((r) => r.kind === 'queue_sms_answer');
    expect(customer.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'skipped', 'skipped']);
    expect(customer.filter((r) => r.status === 'skipped').map((r) => r.last_error)).toEqual([
      'recipient cap',
      'recipient cap',
    ]);
    expect(rows.find((r) => r.kind === 'invitation')?.status).toBe('sent');
    expect(rows.find((r) => r.kind === 'queue_called')?.status).toBe('sent');
    expect((await rowsTo('+237677200005')).map((r) => r.status)).toEqual(['sent']);

    // Within the 24 hours a further one is still capped; once they are past, it is sent.
    s.clock.advance(23 * 60 * MINUTE);
    await answer(to);
    await worker().sweep();
    expect((await rowsTo(to)).at(-1)?.status).toBe('skipped');
    s.clock.advance(61 * MINUTE);
    await answer(to);
    await worker().sweep();
    expect((await rowsTo(to)).at(-1)?.status).toBe('sent');
  });
});
