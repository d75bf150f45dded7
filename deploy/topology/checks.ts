/**
 * What the topology test checks once the load has stopped and every payment is final: the
 * database (no payment lost or confirmed twice, no seat sold twice), the sockets, and the
 * requests of each phase; and the figures it prints (decision 034).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT } from './hosts.js';
import type { LoadResult, RequestRecord } from './load.js';

export interface Window {
  start: number;
  end: number;
}

export interface Timeline {
  /** The rolling deploy from the previous release, then one of this release onto itself. */
  deployPrevious: Window;
  deploy: Window;
  kill: Window;
  cut: Window;
}

export class Checks {
  readonly failures: string[] = [];
  readonly lines: string[] = [];

  check(ok: boolean, what: string): void {
    this.lines.push(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) this.failures.push(what);
  }

  figure(text: string): void {
    this.lines.push(`     ${text}`);
  }
}

export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}

/** A request belongs to a window if it was under way at any moment of it. */
const inWindow = (r: RequestRecord, w: Window) => r.t <= w.end && r.t + r.ms >= w.start;
const failed = (r: RequestRecord) => r.status === 0 || r.status >= 500;

function byStatus(records: RequestRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) {
    // A 5xx says who gave it: nginx itself (no process could answer) or the API, with its code.
    const who = r.fromProxy ? ' nginx' : r.code ? ` ${r.code}` : '';
    const key =
      r.status === 0 ? `no answer (${r.error ?? '?'})` : `${r.status}${r.status >= 500 ? who : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort()
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
}

/** nginx's `fail_timeout` for the API processes, as `deploy/nginx/upstream-vm.conf` sets it. */
function nginxFailTimeoutMs(): number {
  const vm = readFileSync(join(ROOT, 'deploy/nginx/upstream-vm.conf'), 'utf8');
  const seconds = /fail_timeout=(\d+)s/.exec(vm)?.[1];
  if (!seconds) throw new Error('upstream-vm.conf: no fail_timeout=<n>s');
  return Number(seconds) * 1000;
}

/** The requests: answered during the deploy; only 503 + Retry-After during the cut. */
export function checkRequests(
  c: Checks,
  load: LoadResult,
  t: Timeline,
  previousDrains: boolean,
): void {
  // The cut's window runs on until the process has its database again (5 s past the cut).
  const cutWindow = { start: t.cut.start, end: t.cut.end + 5000 };
  const during = (w: Window) => (r: RequestRecord) => inWindow(r, w);
  const inKill = during(t.kill);
  const inCut = during(cutWindow);
  const kill = load.requests.filter(inKill);
  // A request under way when the process it was on got SIGKILL may be lost: counted, not checked.
  c.figure(
    `requests under way during the SIGKILL and restart: n=${kill.length}; ${byStatus(kill)}`,
  );
  const cut = load.requests.filter((r) => inCut(r) && !inKill(r));
  const badCut = cut.filter((r) => failed(r) && !(r.status === 503 && r.retryAfter));
  c.check(
    badCut.length === 0,
    `during the database cut, every 5xx is a 503 with Retry-After (n=${cut.length}; ${byStatus(cut)})`,
  );
  // A previous release without the drain exits at once: nginx counts each exit's failed
  // requests and leaves that process out for its `fail_timeout`, so the answers nginx gives
  // itself (503, no live upstream) can run on that long after the last restart. They are
  // that deploy's, reported with it and not checked.
  const previousWindow = previousDrains
    ? t.deployPrevious
    : { start: t.deployPrevious.start, end: t.deployPrevious.end + nginxFailTimeoutMs() };
  const deploys = [
    [previousWindow, 'the previous release → this one'],
    [t.deploy, 'this release → itself'],
  ] as const;
  for (const [w, name] of deploys) {
    const deploy = load.requests.filter((r) => inWindow(r, w) && !inKill(r) && !inCut(r));
    const what = `rolling deploy, ${name}: every request answered without a 5xx (n=${deploy.length}; ${byStatus(deploy)})`;
    // A previous release without the drain (7432061) closes idle upstream connections as nginx
    // sends on them: what it does is shown, and held to the rule once it has the drain.
    if (w === previousWindow && !previousDrains)
      c.figure(`${what} [previous release without the drain: not checked]`);
    else c.check(deploy.length > 0 && deploy.every((r) => !failed(r)), what);
  }
  const elsewhere = load.requests.filter(
    (r) => !inKill(r) && !inCut(r) && !deploys.some(([w]) => inWindow(r, w)),
  );
  c.check(
    elsewhere.every((r) => !failed(r)),
    `no 5xx or unanswered request outside the deploy, the kill and the cut (n=${elsewhere.length}; ${byStatus(elsewhere.filter(failed)) || 'none'})`,
  );
  // Where the failures outside the events fell: seconds after the end of the nearest event.
  const events = [
    ...deploys.map(([w, name]) => [w, name] as const),
    [t.kill, 'the kill'] as const,
    [cutWindow, 'the cut'] as const,
  ];
  const placed = elsewhere.filter(failed).map((r) => {
    const before = events.filter(([w]) => w.end <= r.t).sort(([a], [b]) => b.end - a.end)[0];
    const after = before
      ? `${((r.t - before[0].end) / 1000).toFixed(1)} s after ${before[1]}`
      : 'before any event';
    return `${r.kind} ${r.status}${r.fromProxy ? ' (nginx)' : ''} ${after}`;
  });
  if (placed.length > 0)
    c.figure(`the failures outside the events: ${[...new Set(placed)].slice(0, 12).join('; ')}`);
  c.figure(`bookings given up after five failed tries: ${load.gaveUp}`);
}

/**
 * The payments failed NOT_AT_PROVIDER: their collect never reached the simulator (the process
 * was killed, or lost its database, between the seat's hold and the collect), so no prompt
 * was sent and FAILED is their right end, whatever the number.
 */
export async function neverCollected(url: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (
      await client.query(
        // The simulator's own book (simulator_collects) says which collects it accepted: a
        // payment in it was collected, whatever the reconciler concluded (checkDatabase).
        `select distinct e.payment_id from payment_events e
          where e.outcome = 'not_at_provider'
            and not exists (select 1 from simulator_collects s where s.payment_id = e.payment_id::text)`,
      )
    ).rows as { payment_id: string }[];
    return new Set(rows.map((r) => r.payment_id));
  } finally {
    await client.end();
  }
}

/**
 * Every payment followed to its final status over a socket; the reconnect times. A payment
 * never collected (`uncollected`) is expected to fail; any other ends as the simulator
 * settles its number.
 */
export function checkSockets(
  c: Checks,
  load: LoadResult,
  target: number,
  uncollected: ReadonlySet<string>,
): void {
  c.check(
    load.maxOpenSockets >= target,
    `status sockets open at once: ${load.maxOpenSockets} (target ${target})`,
  );
  const unfinished = load.payments.filter((p) => p.finalStatus === null);
  c.check(
    unfinished.length === 0,
    `every status socket received its payment's final status (${load.payments.length} payments, ${unfinished.length} without; e.g. ${unfinished
      .slice(0, 3)
      .map((p) => p.paymentId)
      .join(' ')})`,
  );
  const expected = (p: LoadResult['payments'][number]) =>
    uncollected.has(p.paymentId) ? 'FAILED' : p.expected;
  const wrong = load.payments.filter(
    (p) => p.finalStatus !== null && p.finalStatus !== expected(p),
  );
  const spared = load.payments.filter((p) => uncollected.has(p.paymentId)).length;
  c.check(
    wrong.length === 0,
    `every final status is the simulator's outcome for the number, or FAILED when never collected (${wrong.length} not; ${spared} never collected; e.g. ${wrong
      .slice(0, 3)
      .map((p) => `${p.paymentId} ${p.finalStatus}`)
      .join(' ')})`,
  );
  const reconnects: number[] = [];
  const closeCodes = new Map<number, number>();
  /** Reconnect times by the code the socket was closed with: which closes make the tail. */
  const byCode = new Map<number, number[]>();
  for (const p of load.payments) {
    for (let i = 0; i + 1 < p.connects.length; i += 1) {
      const closed = p.connects[i];
      const next = p.connects[i + 1];
      if (!closed || !next) continue;
      closeCodes.set(closed.code ?? 0, (closeCodes.get(closed.code ?? 0) ?? 0) + 1);
      if (closed.close !== null && next.firstMessage !== null) {
        reconnects.push(next.firstMessage - closed.close);
        const of = byCode.get(closed.code ?? 0) ?? [];
        of.push(next.firstMessage - closed.close);
        byCode.set(closed.code ?? 0, of);
      }
    }
  }
  const codes = [...closeCodes.entries()].map(([k, v]) => `${k}: ${v}`).join(', ');
  c.figure(
    `socket reconnects: ${reconnects.length} (early closes by code: ${codes || 'none'}); close → next status p50 ${percentile(reconnects, 50) ?? '-'} ms, p99 ${percentile(reconnects, 99) ?? '-'} ms, max ${percentile(reconnects, 100) ?? '-'} ms`,
  );
  c.figure(
    `socket reconnect time by close code: ${
      [...byCode.entries()]
        .map(
          ([code, times]) =>
            `${code}: n=${times.length}, p50 ${percentile(times, 50)} ms, p99 ${percentile(times, 99)} ms`,
        )
        .join('; ') || 'none'
    }`,
  );
}

/** The database's account of the run. */
export async function checkDatabase(c: Checks, url: string, load: LoadResult): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const one = async <T>(text: string): Promise<T> => (await client.query(text)).rows[0] as T;
    const counts = await one<{
      total: string;
      pending: string;
      unprompted: string;
      ok: string;
      failed: string;
    }>(
      `select count(*) as total,
              count(*) filter (where status = 'PENDING') as pending,
              count(*) filter (where status = 'PENDING' and provider_reference is null) as unprompted,
              count(*) filter (where status = 'SUCCESSFUL') as ok,
              count(*) filter (where status = 'FAILED') as failed
         from payments`,
    );
    c.check(
      Number(counts.pending) === 0,
      `every payment initiated reached a final state (${counts.total} in the database: ${counts.ok} successful, ${counts.failed} failed, ${counts.pending} pending, of which ${counts.unprompted} without a provider reference: never sent to the provider)`,
    );
    // Payments whose collect answer never reached the row (its process died, or lost the
    // database, just after the collect): found in the simulator's book by our id; and those
    // that never reached the simulator at all, failed NOT_AT_PROVIDER after a minute.
    const recovered = await one<{ found: string; absent: string }>(
      `select count(distinct payment_id) filter (where outcome = 'found_by_lookup') as found,
              count(distinct payment_id) filter (where outcome = 'not_at_provider') as absent
         from payment_events`,
    );
    c.figure(
      `payments whose collect answer was lost: ${recovered.found} found by our id in the simulator's book (then settled as above), ${recovered.absent} failed NOT_AT_PROVIDER (never collected)`,
    );
    // NOT_AT_PROVIDER means the simulator never accepted the collect: none of those payments
    // may be in its book (else a customer prompted to pay would see the payment failed).
    const collected = await one<{ n: string }>(
      `select count(distinct e.payment_id) as n from payment_events e
         join simulator_collects s on s.payment_id = e.payment_id::text
        where e.outcome = 'not_at_provider'`,
    );
    c.check(
      Number(collected.n) === 0,
      `no payment failed NOT_AT_PROVIDER that the simulator had collected (${collected.n})`,
    );
    const known = new Set(load.payments.map((p) => p.paymentId));
    const ids = (await client.query('select id, status from payments')).rows as {
      id: string;
      status: string;
    }[];
    const unknown = ids.filter((r) => !known.has(r.id));
    c.figure(
      `payments the load never got an answer for (its request was cut): ${unknown.length} (${unknown.map((r) => r.status).join(', ') || '-'})`,
    );
    const byId = new Map(ids.map((r) => [r.id, r.status]));
    const differ = load.payments.filter((p) => byId.get(p.paymentId) !== p.finalStatus);
    c.check(
      differ.length === 0,
      `each socket's final status is the database's (${differ.length} differ)`,
    );
    const twice = await one<{ n: string }>(
      `select count(*) as n from (
         select booking_id from payments where status = 'SUCCESSFUL'
          group by booking_id having count(*) > 1) x`,
    );
    c.check(Number(twice.n) === 0, `no booking paid twice (${twice.n})`);
    const notConfirmed = await one<{ n: string; refunds: string }>(
      `select count(*) filter (where not p.needs_refund) as n,
              count(*) filter (where p.needs_refund) as refunds
         from payments p join bookings b on b.id = p.booking_id
        where p.status = 'SUCCESSFUL' and b.status <> 'confirmed'`,
    );
    c.check(
      Number(notConfirmed.n) === 0,
      `every successful payment has its booking confirmed (${notConfirmed.n} not, ${notConfirmed.refunds} recorded for refund)`,
    );
    const unpaid = await one<{ n: string }>(
      `select count(*) as n from bookings b
        where b.status = 'confirmed'
          and not exists (select 1 from payments p where p.booking_id = b.id and p.status = 'SUCCESSFUL')`,
    );
    c.check(
      Number(unpaid.n) === 0,
      `no booking confirmed without a successful payment (${unpaid.n})`,
    );
    const oversold = await one<{ n: string }>(
      `select count(*) as n from (
         select b.slot_id, b.booking_date
           from bookings b join services s on s.id = b.service_id
          where b.status in ('held', 'confirmed', 'checked_in')
          group by b.slot_id, b.booking_date, s.capacity
         having count(*) > s.capacity) x`,
    );
    const seats = await one<{ sold: string; slots: string }>(
      `select count(*) as sold, count(distinct (slot_id, booking_date)) as slots
         from bookings where status in ('held', 'confirmed', 'checked_in')`,
    );
    c.check(
      Number(oversold.n) === 0,
      `no seat sold twice: ${seats.sold} seats held or sold over ${seats.slots} slot-days, ${oversold.n} slot-days over capacity; ${load.seatTaken} bookings refused 409 (seat taken)`,
    );
  } finally {
    await client.end();
  }
}
