/**
 * The load side of the status-socket benchmark, in its own process (bench/sockets.ts forks
 * it with IPC): initiates the payments, then on the parent's word opens one status socket
 * per payment — for half of them on the server process that did not initiate it — and
 * reports when every socket has its first message and when each one got its final status.
 */
import WebSocket from 'ws';

export interface LoadPlan {
  origins: [string, string];
  count: number;
  serviceId: string;
  slotIds: string[];
  date: string;
  concurrency: number;
}

export type ToLoad = { kind: 'plan'; plan: LoadPlan } | { kind: 'open' } | { kind: 'stop' };

export interface SocketOutcome {
  paymentId: string;
  expected: 'SUCCESSFUL' | 'FAILED';
  initiatedOn: 0 | 1;
  socketOn: 0 | 1;
  /** Epoch ms the final status arrived; null if it never did. */
  finalAt: number | null;
  finalStatus: string | null;
  closeCode: number | null;
  error: string | null;
}

export type FromLoad =
  | { kind: 'initiated'; ok: number; failed: number; seconds: number; firstError: string | null }
  | {
      kind: 'open';
      open: number;
      failed: number;
      /** Sockets that had their final status already when the last one opened. */
      finalsSoFar: number;
      seconds: number;
      firstError: string | null;
    }
  | { kind: 'done'; outcomes: SocketOutcome[] };

function send(message: FromLoad): void {
  process.send?.(message);
}

/** Runs `work` over `items` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const item = items[next] as T;
        next += 1;
        await work(item);
      }
    }),
  );
}

/** …000 numbers are declined by the simulator, others succeed: one in ten fails. */
function phoneFor(i: number): string {
  return `677${String(i).padStart(3, '0')}${i % 10 === 0 ? '000' : '123'}`;
}

interface Payment {
  id: string;
  initiatedOn: 0 | 1;
  expected: 'SUCCESSFUL' | 'FAILED';
}

async function initiateAll(plan: LoadPlan): Promise<Payment[]> {
  const started = performance.now();
  const payments: Payment[] = [];
  let failed = 0;
  let firstError: string | null = null;
  const indexes = Array.from({ length: plan.count }, (_, i) => i);
  await pool(indexes, plan.concurrency, async (i) => {
    const on = (i % 2) as 0 | 1;
    const body = {
      cus_name: 'Bench Payer',
      cus_email: `payer${i}@example.com`,
      phone_number: phoneFor(i),
      amount: '2',
      currency: 'XAF',
      description: 'Service Payment',
      reference: `bench-${Date.now()}-${i}`,
      service_id: plan.serviceId,
      slot_id: plan.slotIds[i % plan.slotIds.length],
      date: plan.date,
    };
    try {
      const res = await fetch(`${plan.origins[on]}/api/v1/payment/initiate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { payment?: { payment_id?: string } };
      const id = json.payment?.payment_id;
      if (res.status !== 201 || !id) throw new Error(`HTTP ${res.status} ${JSON.stringify(json)}`);
      payments.push({ id, initiatedOn: on, expected: i % 10 === 0 ? 'FAILED' : 'SUCCESSFUL' });
    } catch (err) {
      failed += 1;
      firstError ??= String(err).slice(0, 300);
    }
  });
  send({
    kind: 'initiated',
    ok: payments.length,
    failed,
    seconds: (performance.now() - started) / 1000,
    firstError,
  });
  return payments;
}

function openAll(plan: LoadPlan, payments: Payment[]): Promise<SocketOutcome[]> {
  const started = performance.now();
  let opened = 0;
  let failedToOpen = 0;
  let finals = 0;
  let firstError: string | null = null;
  let reported = false;
  const reportOpen = () => {
    if (reported || opened + failedToOpen < payments.length) return;
    reported = true;
    send({
      kind: 'open',
      open: opened,
      failed: failedToOpen,
      finalsSoFar: finals,
      seconds: (performance.now() - started) / 1000,
      firstError,
    });
  };
  return Promise.all(
    payments.map(
      (p, n) =>
        new Promise<SocketOutcome>((resolve) => {
          // Every other payment is watched from the process that did not initiate it.
          const socketOn = (n % 4 < 2 ? 1 - p.initiatedOn : p.initiatedOn) as 0 | 1;
          const url = `${plan.origins[socketOn].replace('http', 'ws')}/api/v1/payment/${p.id}/statusSocket`;
          const outcome: SocketOutcome = {
            paymentId: p.id,
            expected: p.expected,
            initiatedOn: p.initiatedOn,
            socketOn,
            finalAt: null,
            finalStatus: null,
            closeCode: null,
            error: null,
          };
          let first = true;
          const ws = new WebSocket(url);
          ws.on('message', (data) => {
            if (first) {
              first = false;
              opened += 1;
              reportOpen();
            }
            const message = JSON.parse(String(data)) as { status?: string; error?: unknown };
            if (message.error) outcome.error = JSON.stringify(message.error).slice(0, 200);
            if (message.status === 'SUCCESSFUL' || message.status === 'FAILED') {
              if (outcome.finalAt === null) finals += 1;
              outcome.finalAt = Date.now();
              outcome.finalStatus = message.status;
            }
          });
          ws.on('error', (err) => {
            outcome.error ??= String(err).slice(0, 200);
          });
          ws.on('close', (code) => {
            outcome.closeCode = code;
            if (first) {
              first = false;
              failedToOpen += 1;
              firstError ??= outcome.error ?? `closed ${code} before any message`;
              reportOpen();
            }
            resolve(outcome);
          });
        }),
    ),
  );
}

let plan: LoadPlan | null = null;
let payments: Payment[] = [];
process.on('message', (message: ToLoad) => {
  void (async () => {
    if (message.kind === 'plan') {
      plan = message.plan;
      payments = await initiateAll(plan);
    } else if (message.kind === 'open' && plan) {
      const outcomes = await openAll(plan, payments);
      send({ kind: 'done', outcomes });
    } else if (message.kind === 'stop') {
      process.exit(0);
    }
  })();
});
