import type { InsightResponse } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { queueCustomerMessage } from '../../src/modules/messages/messages.module.js';
import { TODAY, useCounterApp } from '../support/checkin-helpers.js';
import { outboxWorker } from '../support/messages-helpers.js';
import { queueApi } from '../support/queue-helpers.js';

/**
 * What messages cost (issue 35, item 6; decision 143): Insight counts an organization's
 * customer messages by channel with their cost at MESSAGE_PRICE_SMS_XAF, and a monthly SMS
 * budget, once another SMS would pass it, holds its SMS back ("sms budget") and tells its admins
 * once by e-mail.
 */
describe('the monthly SMS budget', () => {
  const s = useCounterApp(() => ({
    OUTBOX_WORKER_INTERVAL_MS: '3600000',
    MESSAGE_PRICE_SMS_XAF: '35',
  }));
  const { ctx } = s;
  const q = queueApi(() => s.app);
  const worker = () => outboxWorker(s.app);
  let n = 0;
  /** "Go to the counter" to a new number of organization A. */
  const called = () =>
    queueCustomerMessage(
      s.db,
      {
        kind: 'queue_called',
        organizationId: ctx.a.orgId,
        channel: 'sms',
        to: `+23767740${String(++n).padStart(4, '0')}`,
        locale: 'en',
        dedupeKey: `visit:budget-test-${n}:called:1`,
        written: { subject: 'Queue (called)', text: 'A-001: Go to Counter 1.' },
      },
      s.clock.now(),
    );
  const setBudget = (headers: Record<string, string>, body: Record<string, unknown>) =>
    q.call('PUT', '/organization/sms-budget', headers, body);
  const insight = async () => {
    const res = await q.call(
      'GET',
      `/organization/insight?from=${TODAY}&to=${TODAY}`,
      ctx.adminA.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json<InsightResponse>().messages;
  };
  const statuses = () =>
    s.db
      .selectFrom('outbox')
      .select(['status', 'last_error'])
      .where('dedupe_key', 'like', 'visit:budget-test-%')
      .orderBy('created_at')
      .orderBy('dedupe_key')
      .execute();

  it('is set by an admin only, as a whole number of FCFA or none', async () => {
    const staff = await setBudget(ctx.staffA.headers, { monthly_sms_xaf: 70 });
    expect(staff.statusCode).toBe(403);
    const negative = await setBudget(ctx.adminA.headers, { monthly_sms_xaf: -1 });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().code).toBe('INVALID_SMS_BUDGET');
    const set = await setBudget(ctx.adminA.headers, { monthly_sms_xaf: 70 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ organization_id: ctx.a.orgId, monthly_sms_xaf: 70 });
  });

  it('sends SMS up to the budget, then holds them back and tells the admin once', async () => {
    for (let i = 0; i < 4; i++) await called();
    await worker().sweep();
    expect(await statuses()).toEqual([
      { status: 'sent', last_error: null },
      { status: 'sent', last_error: null },
      { status: 'skipped', last_error: 'sms budget' },
      { status: 'skipped', last_error: 'sms budget' },
    ]);
    const told = await s.db
      .selectFrom('outbox')
      .select(['to_address', 'channel', 'subject'])
      .where('kind', '=', 'sms_budget_reached')
      .execute();
    expect(told).toEqual([
      {
        to_address: 'admin@a.cm',
        channel: 'email',
        subject: 'Qless: your SMS budget for the month is used up',
      },
    ]);

    const messages = await insight();
    expect(messages.channels.find((c) => c.channel === 'sms')).toEqual({
      channel: 'sms',
      sent: 2,
      delivered: 0,
      spared: 0,
      held_by_budget: 2,
      cost_xaf: 70,
    });
    expect(messages.cost_xaf).toBe(70);
    expect(messages.price_sms_xaf).toBe(35);
    expect(messages.budget).toEqual({
      organization_id: ctx.a.orgId,
      monthly_sms_xaf: 70,
      month: '2026-03',
      spent_xaf: 70,
      reached: true,
    });
  });

  it('sends again once the budget is removed', async () => {
    expect((await setBudget(ctx.adminA.headers, { monthly_sms_xaf: null })).statusCode).toBe(200);
    await called();
    await worker().sweep();
    expect((await statuses()).at(-1)).toEqual({ status: 'sent', last_error: null });
    expect((await insight()).budget).toMatchObject({ monthly_sms_xaf: null, reached: false });
  });
});
