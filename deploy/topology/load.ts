/**
 * The topology's load, in its own process in the `qx-load` namespace (decision 034): readers
 * of the public catalogue, and customers who each book a seat, pay through the simulator and
 * follow the payment's status over the status socket until it is final — reconnecting when a
 * socket closes before that (1012 from a draining process, a cut connection), as the web
 * client does. Requests go through nginx over TLS, from 64 client addresses (the app limits
 * per client address; nginx tells it the address in X-Forwarded-For).
 *
 * Run: `node --import tsx deploy/topology/load.ts plan.json`. It prints one JSON line of
 * progress every second, stops starting bookings on "stop" (a line on stdin), waits for every
 * payment it started to be final, then writes everything it saw to `plan.resultFile`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

export interface LoadPlan {
  proxyAddress: string;
  hostName: string;
  caFile: string;
  addresses: string[];
  customers: number;
  rampMs: number;
  readers: number;
  readPauseMs: number;
  orgId: string;
  serviceId: string;
  slotIds: string[];
  dates: string[];
  /** One customer in this many pays with a number the simulator declines. */
  declineEvery: number;
  /** Give up on a payment's final status this long after "stop". */
  finalWaitMs: number;
  resultFile: string;
}

export interface RequestRecord {
  kind: 'read' | 'initiate';
  /** Epoch ms at the start, and the duration. */
  t: number;
  ms: number;
  /** 0: no answer (connection error, reset). */
  status: number;
  retryAfter: boolean;
  /** The answer came from nginx itself (no process could answer). */
  fromProxy: boolean;
  error?: string;
  /** The API's error code of a 4xx/5xx answer (`DATABASE_UNAVAILABLE`), when it sent one. */
  code?: string;
}

export interface SocketConnect {
  start: number;
  firstMessage: number | null;
  close: number | null;
  code: number | null;
  error: string | null;
}

export interface PaymentRecord {
  paymentId: string;
  expected: 'SUCCESSFUL' | 'FAILED';
  initiatedAt: number;
  connects: SocketConnect[];
  finalStatus: string | null;
  finalAt: number | null;
}

export interface LoadResult {
  requests: RequestRecord[];
  payments: PaymentRecord[];
  /** Bookings refused because the seat was taken (409): the races the database decided. */
  seatTaken: number;
  gaveUp: number;
  maxOpenSockets: number;
}

const plan = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as LoadPlan;
const ca = readFileSync(plan.caFile);
const origin = `https://${plan.hostName}`;
// Every connection goes to the proxy, whatever the name says (no DNS in the namespace).
const lookup: LookupFunction = (_host, options, callback) => {
  if (options.all) callback(null, [{ address: plan.proxyAddress, family: 4 }]);
  else callback(null, plan.proxyAddress, 4);
};
const agents = plan.addresses.map(
  (localAddress) =>
    new Agent({
      keepAlive: true,
      maxSockets: 6,
      localAddress,
      ca,
      servername: plan.hostName,
      lookup,
    }),
);

const requests: RequestRecord[] = [];
const payments: PaymentRecord[] = [];
let seatTaken = 0;
/** Bookings given up after five failed tries (no answer or a 5xx each time). */
let gaveUp = 0;
let openSockets = 0;
let maxOpenSockets = 0;
let stopping = false;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)] as T;

function call(
  kind: RequestRecord['kind'],
  address: number,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const t = Date.now();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const finish = (
      status: number,
      json: unknown,
      headers: Record<string, unknown>,
      error?: string,
    ) => {
      requests.push({
        kind,
        t,
        ms: Date.now() - t,
        status,
        retryAfter: headers['retry-after'] !== undefined,
        fromProxy: headers['x-qless-proxy'] !== undefined,
        ...(error ? { error } : {}),
        ...(status >= 400 ? codeOf(json) : {}),
      });
      resolve({ status, json });
    };
    const req = request(
      {
        host: plan.hostName,
        path,
        method,
        agent: agents[address % agents.length],
        timeout: 30_000,
        headers: {
          accept: 'application/json',
          'accept-encoding': 'gzip',
          ...(payload ? { 'content-type': 'application/json', origin } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let json: unknown = null;
          // Gzipped JSON is only read when it matters (initiate answers are small, never gzipped).
          if (res.headers['content-encoding'] === undefined) {
            try {
              json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              json = null;
            }
          }
          finish(res.statusCode ?? 0, json, res.headers);
        });
        res.on('error', (err) => finish(0, null, {}, err.message));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => finish(0, null, {}, err.message));
    req.end(payload);
  });
}

/** `{ code }` of an error answer's body, when it has one. */
function codeOf(json: unknown): { code?: string } {
  const code = (json as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? { code } : {};
}

async function reader(n: number): Promise<void> {
  let i = n;
  while (!stopping) {
    i += 1;
    const date = pick(plan.dates);
    const path = pick([
      '/api/v1/organizations',
      `/api/v1/organizations/${plan.orgId}`,
      `/api/v1/organizations/${plan.orgId}/services`,
      `/api/v1/service/${plan.serviceId}/slots`,
      `/api/v1/service/${plan.serviceId}/bookings?start=${date}&end=${date}`,
    ]);
    await call('read', i, 'GET', path);
    await sleep(plan.readPauseMs);
  }
}

/**
 * The web client's reconnect policy (apps/web/src/lib/live-feed.ts): a socket that was open and
 * closed because its server went away (1001, 1005, 1006, 1011, 1012) reconnects within 0–1 s,
 * three times in a row at most; otherwise a back-off doubling from 1 s (±20 %, at most 30 s). A
 * socket that stayed open 10 s starts the count again.
 */
const PROMPT_CLOSES = new Set([1001, 1005, 1006, 1011, 1012]);

function reconnectDelayMs(code: number | null, wasLive: boolean, attempt: number): number {
  if (wasLive && code !== null && PROMPT_CLOSES.has(code) && attempt < 3) {
    return Math.round(1000 * Math.random());
  }
  const base = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 16));
  return Math.round(base * (0.8 + 0.4 * Math.random()));
}

/** Follows one payment until its final status, over as many sockets as it takes. */
async function follow(record: PaymentRecord, address: number, deadline: () => number) {
  let attempt = 0;
  while (record.finalStatus === null && Date.now() < deadline()) {
    const connect: SocketConnect = {
      start: Date.now(),
      firstMessage: null,
      close: null,
      code: null,
      error: null,
    };
    record.connects.push(connect);
    let openedAt: number | null = null;
    await new Promise<void>((resolve) => {
      const ws = new WebSocket(
        `wss://${plan.hostName}/api/v1/payment/${record.paymentId}/statusSocket`,
        {
          ca,
          lookup,
          localAddress: plan.addresses[address % plan.addresses.length],
          headers: { origin },
          handshakeTimeout: 15_000,
        },
      );
      ws.on('open', () => {
        openedAt = Date.now();
        openSockets += 1;
        maxOpenSockets = Math.max(maxOpenSockets, openSockets);
      });
      ws.on('message', (data) => {
        connect.firstMessage ??= Date.now();
        try {
          const message = JSON.parse(String(data)) as { status?: string };
          if (message.status && message.status !== 'PENDING') {
            record.finalStatus = message.status;
            record.finalAt = Date.now();
          }
        } catch {
          // not a status message
        }
      });
      ws.on('error', (err) => {
        connect.error = err.message;
      });
      ws.on('close', (code) => {
        if (openedAt !== null) openSockets -= 1;
        connect.close = Date.now();
        connect.code = code;
        resolve();
      });
    });
    if (record.finalStatus !== null) return;
    if (openedAt !== null && Date.now() - openedAt >= 10_000) attempt = 0;
    await sleep(reconnectDelayMs(connect.code, openedAt !== null, attempt));
    attempt += 1;
  }
}

function phoneNumber(n: number, decline: boolean): string {
  // 9 digits starting with 6; the simulator declines numbers ending in 000 (never 999 here).
  const base = String(70_000_000 + ((n * 7919) % 29_000_000)).padStart(8, '0');
  const digits = decline ? `${base.slice(0, 5)}000` : base.replace(/(000|999)$/, '123');
  return `+2376${digits}`;
}

const unfinished = new Set<Promise<void>>();
let finalDeadline = Number.POSITIVE_INFINITY;
let customerCount = 0;

async function customer(n: number): Promise<void> {
  await sleep((plan.rampMs * n) / plan.customers);
  const address = n;
  while (!stopping) {
    customerCount += 1;
    const id = customerCount;
    const decline = id % plan.declineEvery === 0;
    const body = {
      cus_name: `Customer ${id}`,
      cus_email: `customer${id}@example.cm`,
      phone_number: phoneNumber(id, decline),
      amount: 2,
      currency: 'XAF',
      description: 'Topology test',
      reference: `topo-${process.pid}-${id}-${Math.random().toString(36).slice(2, 10)}`,
      service_id: plan.serviceId,
      slot_id: pick(plan.slotIds),
      date: pick(plan.dates),
    };
    // As the web client: after no answer or a 5xx the customer taps "Pay" again, with the same
    // reference (the app answers with the payment it may have started); a few times at most.
    let answer = await call('initiate', address, 'POST', '/api/v1/payment/initiate', body);
    for (let again = 0; again < 5 && (answer.status === 0 || answer.status >= 500); again += 1) {
      await sleep(1000);
      answer = await call('initiate', address, 'POST', '/api/v1/payment/initiate', body);
    }
    const payment = (answer.json as { payment?: { payment_id?: string } } | null)?.payment;
    if ((answer.status === 200 || answer.status === 201) && payment?.payment_id) {
      const record: PaymentRecord = {
        paymentId: payment.payment_id,
        expected: decline ? 'FAILED' : 'SUCCESSFUL',
        initiatedAt: Date.now(),
        connects: [],
        finalStatus: null,
        finalAt: null,
      };
      payments.push(record);
      // The customer waits for the outcome before booking again (the 300 open sockets).
      const following = follow(record, address, () => finalDeadline);
      unfinished.add(following);
      await following;
      unfinished.delete(following);
    } else if (answer.status === 409) {
      seatTaken += 1;
    } else {
      gaveUp += answer.status >= 500 || answer.status === 0 ? 1 : 0;
      await sleep(answer.status === 429 ? 1000 : 300);
    }
  }
}

const startedAt = Date.now();
const readers = Array.from({ length: plan.readers }, (_, n) => reader(n));
const customers = Array.from({ length: plan.customers }, (_, n) => customer(n));
const progress = setInterval(() => {
  const pending = payments.filter((p) => p.finalStatus === null).length;
  process.stdout.write(
    `${JSON.stringify({
      kind: 'progress',
      s: Math.round((Date.now() - startedAt) / 1000),
      openSockets,
      payments: payments.length,
      pending,
      requests: requests.length,
      errors: requests.filter((r) => r.status === 0 || r.status >= 500).length,
    })}\n`,
  );
}, 1000);

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'stop' || stopping) return;
  stopping = true;
  finalDeadline = Date.now() + plan.finalWaitMs;
  // Whatever is still waiting then (a reconnect's back-off, a request) is cut short.
  const late = new Promise((r) => setTimeout(r, plan.finalWaitMs + 15_000).unref());
  void (async () => {
    await Promise.race([Promise.all([...readers, ...customers, ...unfinished]), late]);
    clearInterval(progress);
    const result: LoadResult = { requests, payments, seatTaken, gaveUp, maxOpenSockets };
    writeFileSync(plan.resultFile, JSON.stringify(result));
    process.stdout.write(`${JSON.stringify({ kind: 'done' })}\n`);
    for (const agent of agents) agent.destroy();
    process.exit(0);
  })();
});
