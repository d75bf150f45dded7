// engines: postgres and pglite — the pool's figures (PGlite: its one session), the scrape's SQL
import { describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { initiateBody } from '../support/fixtures.js';
import { listen, ORIGIN } from '../support/payment-helpers.js';
import { useSimulatorApp } from '../support/simulator-harness.js';
import { openSocket } from '../support/ws.js';

const TOKEN = 'metrics-token-0123456789abcdef';

/** Every series decision 029 names (the topology test and the alert rules read them). */
const SERIES = [
  'qless_http_requests_total',
  'qless_http_request_duration_seconds',
  'qless_payments',
  'qless_payments_oldest_age_seconds',
  'qless_payments_settled_total',
  'qless_payment_confirm_seconds',
  'qless_payment_initiated_to_confirmed_seconds',
  'qless_reconciler_backlog',
  'qless_reconciler_sweeps_total',
  'qless_reconciler_checks_total',
  'qless_outbox_pending',
  'qless_outbox_due',
  'qless_outbox_oldest_pending_age_seconds',
  'qless_outbox_sent_total',
  'qless_outbox_delivery_failures_total',
  'qless_live_sockets',
  'qless_live_sockets_closed_total',
  'qless_db_pool_connections',
  'qless_db_pool_acquire_seconds',
  'qless_db_errors_total',
  'qless_database_up',
  'qless_read_cache_requests_total',
  'qless_draining',
  'qless_process_start_time_seconds',
];

/** The value of one sample, e.g. `qless_payments{state="pending"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  }
  return undefined;
}

function exported(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const match = /^# TYPE (\S+) /.exec(line);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}

type Line = Record<string, unknown>;

describe('metrics and request logs', () => {
  const lines: string[] = [];
  const h = useSimulatorApp({
    env: {
      METRICS_TOKEN: TOKEN,
      METRICS_PORT: '0',
      LOG_LEVEL: 'debug',
      // The tests sweep by hand, on the pinned clock.
      OUTBOX_WORKER_INTERVAL_MS: '3600000',
      REMINDERS_ENABLED: 'false',
    },
    logStream: { write: (line) => lines.push(line) },
  });
  const logged = (): Line[] => lines.map((l) => JSON.parse(l) as Line);
  const scrape = (authorization?: string) =>
    h.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: authorization ? { authorization } : {},
    });

  it('answers /metrics on the main port for the operator token only', async () => {
    const missing = await scrape();
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: 'METRICS_TOKEN_REQUIRED' });
    for (const wrong of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await scrape(wrong);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'METRICS_TOKEN_REQUIRED' });
      expect(res.body).not.toContain('qless_');
    }
    const right = await scrape(`Bearer ${TOKEN}`);
    expect(right.statusCode).toBe(200);
    expect(right.headers['content-type']).toContain('text/plain');
    expect(right.body).toContain('# TYPE qless_http_requests_total counter');
    // The token never reaches a log line.
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('answers on its own listener without a token, and nothing else there', async () => {
    const address = h.app.metricsAddress;
    expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
    const res = await fetch(`http://${address}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('qless_database_up 1');
    expect((await fetch(`http://${address}/api/v1/organizations`)).status).toBe(404);
    expect((await fetch(`http://${address}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('logs one line per request, with its id, route pattern, status and duration', async () => {
    lines.length = 0;
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/v1/service/${h.fx.serviceId}/bookings?start=2026-03-05&end=2026-03-05&token=s3cret`,
      headers: {
        'x-request-id': 'edge-0123456789abcdef',
        'user-agent': `Phone/1 ${'x'.repeat(300)}`,
      },
      remoteAddress: '203.0.113.9',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('edge-0123456789abcdef');
    const requestLines = logged().filter((l) => l.reqId === 'edge-0123456789abcdef');
    expect(requestLines).toHaveLength(1);
    const [line] = requestLines;
    expect(line).toMatchObject({
      msg: 'request',
      method: 'GET',
      route: '/api/v1/service/:serviceId/bookings',
      status: 200,
      ip: '203.0.113.9',
    });
    expect(line?.url).toContain('token=[redacted]');
    expect(typeof line?.ms).toBe('number');
    expect(String(line?.ua)).toHaveLength(120);
    expect(lines.join('\n')).not.toContain('s3cret');
    expect(lines.join('\n')).not.toContain('incoming request');

    // An id that does not look like one is replaced (never echoed into logs or headers).
    for (const bad of ['short', 'has space 0123456789', 'y'.repeat(65), 'semi;colon-0123456789']) {
      const other = await h.app.inject({
        method: 'GET',
        url: '/api/v1/no-such-route',
        headers: { 'x-request-id': bad },
      });
      expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines.join('\n')).not.toContain(bad);
    }
    const unmatched = logged().find((l) => l.msg === 'request' && l.status === 404);
    expect(unmatched?.route).toBe('unmatched');
  });

  it('carries the request id into the work the request started', async () => {
    lines.length = 0;
    const initiated = await h.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(h.fx, { date: h.nextDate(), slotIndex: 3 }),
      headers: { 'x-request-id': 'pay-request-000001' },
    });
    expect(initiated.statusCode).toBe(201);
    const paymentId = initiated.json().payment.payment_id as string;
    const row = await h.database.db
      .selectFrom('payments')
      .select('request_id')
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    expect(row.request_id).toBe('pay-request-000001');

    // The provider's callback (another request) confirms it: the settlement, and the
    // confirmation SMS it queues, carry the initiating request's id.
    expect((await h.callback(paymentId, 'SUCCESSFUL')).json()).toMatchObject({
      outcome: 'confirmed',
    });
    expect(logged()).toContainEqual(
      expect.objectContaining({
        msg: 'payment settled',
        reqId: 'pay-request-000001',
        paymentId,
        source: 'callback',
      }),
    );
    await h.app.messaging.worker?.sweep();
    const sent = logged().filter((l) => l.msg === 'message sent');
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.map((l) => l.reqId)).toContain('pay-request-000001');
    expect(sent.find((l) => l.channel === 'sms')?.reqId).toBe('pay-request-000001');
    // Never the recipient or the text.
    expect(JSON.stringify(sent)).not.toContain('677123456');

    // A payment the reconciler settles: its checks are logged with the initiating id.
    const second = await h.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(h.fx, { date: h.nextDate(), slotIndex: 4 }),
      headers: { 'x-request-id': 'pay-request-000002' },
    });
    const secondId = second.json().payment.payment_id as string;
    h.clock.advance(61_000);
    await h.app.payments.reconciler.sweep();
    expect(logged()).toContainEqual(
      expect.objectContaining({
        msg: 'reconciler checked a pending payment',
        reqId: 'pay-request-000002',
        paymentId: secondId,
      }),
    );
    expect(logged()).toContainEqual(
      expect.objectContaining({
        msg: 'payment settled',
        reqId: 'pay-request-000002',
        source: 'status_check',
      }),
    );
  });

  it('exports every series, with what happened counted', async () => {
    // A payment left pending for 25 s (due a status check), a queued SMS, two catalogue
    // reads (a miss, then a hit) and a live socket.
    const pending = await h.initiate(initiateBody(h.fx, { date: h.nextDate(), slotIndex: 5 }));
    const pendingId = pending.json().payment.payment_id as string;
    h.clock.advance(25_000);
    for (let i = 0; i < 2; i += 1) {
      await h.app.inject({ method: 'GET', url: `/api/v1/service/${h.fx.serviceId}` });
    }
    const host = await listen(h.app);
    const socket = await openSocket(
      `ws://${host}/api/v1/payment/${pendingId}/statusSocket`,
      ORIGIN,
    );
    const open = (await scrape(`Bearer ${TOKEN}`)).body;
    socket.ws.close(1000);
    await socket.closed;

    const names = exported(open);
    for (const series of SERIES) expect(names, series).toContain(series);

    expect(sample(open, 'qless_live_sockets{kind="payment_status"}')).toBe(1);
    expect(sample(open, 'qless_payments{state="pending"}')).toBe(1);
    expect(sample(open, 'qless_payments_oldest_age_seconds{state="pending"}')).toBe(25);
    expect(sample(open, 'qless_reconciler_backlog')).toBe(1);
    expect(
      sample(open, 'qless_payments_settled_total{status="SUCCESSFUL",source="callback"}'),
    ).toBe(1);
    expect(
      sample(open, 'qless_payments_settled_total{status="SUCCESSFUL",source="status_check"}'),
    ).toBe(1);
    expect(sample(open, 'qless_payment_confirm_seconds_count{source="callback"}')).toBe(1);
    expect(sample(open, 'qless_payment_confirm_seconds_count{source="status_check"}')).toBe(1);
    expect(
      sample(open, 'qless_payment_initiated_to_confirmed_seconds_sum{source="status_check"}'),
    ).toBe(61);
    expect(sample(open, 'qless_reconciler_sweeps_total{result="ok"}')).toBe(1);
    expect(sample(open, 'qless_reconciler_checks_total{result="settled"}')).toBe(1);
    // The second confirmation's SMS (and e-mail, no SMTP here) wait in the outbox.
    expect(sample(open, 'qless_outbox_pending{channel="sms"}')).toBe(1);
    expect(sample(open, 'qless_outbox_due{channel="sms"}')).toBe(1);
    expect(sample(open, 'qless_outbox_oldest_pending_age_seconds{channel="sms"}')).toBe(25);
    expect(sample(open, 'qless_outbox_pending{channel="email"}')).toBeGreaterThanOrEqual(1);
    expect(sample(open, 'qless_outbox_sent_total{channel="sms"}')).toBe(1);
    expect(
      sample(open, 'qless_outbox_delivery_failures_total{channel="sms",kind="permanent"}'),
    ).toBe(0);
    expect(sample(open, 'qless_read_cache_requests_total{result="miss"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(open, 'qless_read_cache_requests_total{result="hit"}')).toBeGreaterThanOrEqual(1);
    expect(sample(open, 'qless_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    // The scrape's own read may be waiting for a new connection.
    expect(sample(open, 'qless_db_pool_connections{state="waiting"}')).toBeGreaterThanOrEqual(0);
    expect(sample(open, 'qless_db_pool_acquire_seconds_count')).toBeGreaterThan(10);
    expect(sample(open, 'qless_db_errors_total{kind="connection_lost"}')).toBe(0);
    expect(sample(open, 'qless_database_up')).toBe(1);
    expect(sample(open, 'qless_draining')).toBe(0);
    expect(sample(open, 'qless_process_start_time_seconds')).toBeGreaterThan(1_600_000_000);
    // Requests by route pattern and exact status; never a raw URL with an id in it.
    expect(
      sample(
        open,
        'qless_http_requests_total{method="POST",route="/api/v1/payment/initiate",status="201"}',
      ),
    ).toBe(3);
    expect(open).not.toContain(pendingId);
    expect(open).not.toContain(h.fx.serviceId);

    // A live socket's line is written when it closes: 101 and how long it was open.
    await expect
      .poll(() => logged().find((l) => l.route === '/api/v1/payment/:paymentId/statusSocket'))
      .toMatchObject({ msg: 'request', status: 101, method: 'GET' });
    const after = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(sample(after, 'qless_live_sockets{kind="payment_status"}')).toBe(0);
    expect(
      sample(after, 'qless_live_sockets_closed_total{kind="payment_status",reason="normal"}'),
    ).toBe(1);
    // Within 5 s the database's figures are the last read's: one read for many scrapers.
    await h.initiate(initiateBody(h.fx, { date: h.nextDate(), slotIndex: 6 }));
    expect(sample(after, 'qless_payments{state="pending"}')).toBe(1);
    expect(sample((await scrape(`Bearer ${TOKEN}`)).body, 'qless_payments{state="pending"}')).toBe(
      1,
    );
  });
});

describe('metrics not configured', () => {
  const s = useStack({ env: {} });

  it('has no /metrics at all', async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(s.app.metricsAddress).toBeNull();
  });
});
