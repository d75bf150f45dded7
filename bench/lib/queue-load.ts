/**
 * The load side of the queue benchmark, in its own process (bench/queue.ts forks it with
 * IPC): customers join the queue from the poster's page, every board and every customer
 * follows over its WebSocket, then each counter calls the next person about once a second
 * (Call next, then Start, so the next Call next finishes the visit as done). For every call
 * it records when the request left and when each board and the called customer's socket
 * first showed it: one clock, this process's.
 */
import WebSocket from 'ws';

export interface QueueLoadPlan {
  /** One origin per server process; sockets and requests alternate between them. */
  origins: string[];
  organizationId: string;
  serviceIds: string[];
  /** The visitors in line (written before the servers started), each with its key. */
  customers: Customer[];
  boards: { token: string }[];
  counters: { id: string; name: string; session: string }[];
  /** How long the counters keep calling. */
  callingMs: number;
  /** Mean time between two calls of one counter. */
  callEveryMs: number;
}

export type ToQueueLoad =
  | { kind: 'plan'; plan: QueueLoadPlan }
  | { kind: 'follow' }
  | { kind: 'call' }
  | { kind: 'stop' };

export interface CallRecord {
  counter: string;
  number: string;
  visitId: string;
  sentAt: number;
  answeredAt: number;
  /** ms from the request leaving to each board's first message showing it (null: never). */
  boards: (number | null)[];
  /**
   * ms to the called customer's turn socket naming the counter to go to (null: never, or not
   * followed): "called", or "being served" at it when the bench's Start, sent at once after
   * the call, reached the same render (a hall's Start comes when the visitor is there).
   */
  turn: number | null;
  /** The socket said "called" itself before anything else. */
  sawCalled: boolean;
}

export type FromQueueLoad =
  | { kind: 'joined'; ok: number; failed: number; seconds: number; firstError: string | null }
  | {
      kind: 'following';
      boards: number;
      turns: number;
      failed: number;
      seconds: number;
      firstError: string | null;
    }
  | {
      kind: 'called';
      calls: CallRecord[];
      refused: number;
      firstRefusal: string | null;
      boardMessages: number;
      turnMessages: number;
      bytesToTurns: number;
      closedEarly: number;
    };

function send(message: FromQueueLoad): void {
  process.send?.(message);
}

export interface Customer {
  visitId: string;
  key: string;
  origin: number;
}

const asRecord = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};

/** The line is in place before the run (bench/queue.ts): reported as joined. */
function joinAll(plan: QueueLoadPlan): Customer[] {
  send({ kind: 'joined', ok: plan.customers.length, failed: 0, seconds: 0, firstError: null });
  return plan.customers;
}

/** When each board first showed (counter, number) and each visit first read "called". */
const boardSeen: Map<string, number>[] = [];
const turnCalledAt = new Map<string, number>();
/** Visits whose socket's first turn past waiting was "called" itself. */
const sawCalled = new Set<string>();
let boardMessages = 0;
let turnMessages = 0;
let bytesToTurns = 0;
let closedEarly = 0;
let stopping = false;
const sockets: WebSocket[] = [];

function wsUrl(origin: string, path: string): string {
  return `${origin.replace(/^http/, 'ws')}${path}`;
}

function follow(plan: QueueLoadPlan, customers: Customer[]): Promise<void> {
  const started = performance.now();
  let boards = 0;
  let turns = 0;
  let failed = 0;
  let firstError: string | null = null;
  const total = plan.boards.length + customers.length;
  return new Promise((resolve) => {
    const settled = () => {
      if (boards + turns + failed < total) return;
      send({
        kind: 'following',
        boards,
        turns,
        failed,
        seconds: (performance.now() - started) / 1000,
        firstError,
      });
      resolve();
    };
    const open = (url: string, onMessage: (data: string) => void, onFirst: () => void) => {
      let first = true;
      const ws = new WebSocket(url);
      sockets.push(ws);
      ws.on('message', (data) => {
        if (first) {
          first = false;
          onFirst();
          settled();
        }
        onMessage(String(data));
      });
      ws.on('error', (err) => {
        firstError ??= String(err).slice(0, 200);
      });
      ws.on('close', (code) => {
        if (first) {
          first = false;
          failed += 1;
          firstError ??= `closed ${code} before any message`;
          settled();
        } else if (!stopping) closedEarly += 1;
      });
    };
    plan.boards.forEach((board, b) => {
      const seen = new Map<string, number>();
      boardSeen.push(seen);
      const origin = plan.origins[b % plan.origins.length] ?? '';
      open(
        wsUrl(origin, `/api/v1/board/${board.token}/socket`),
        (data) => {
          const at = Date.now();
          boardMessages += 1;
          const message = asRecord(JSON.parse(data));
          const snapshot = asRecord(message.board ?? message.snapshot ?? message);
          const serving = Array.isArray(snapshot.serving) ? snapshot.serving : [];
          for (const entry of serving) {
            const e = asRecord(entry);
            if (typeof e.number !== 'string') continue;
            const k = `${String(e.counter_name)}|${e.number}`;
            if (!seen.has(k)) seen.set(k, at);
          }
        },
        () => {
          boards += 1;
        },
      );
    });
    // Half of the customers follow from the process they did not join through.
    customers.forEach((c, n) => {
      const origin = plan.origins[(c.origin + (n % 2)) % plan.origins.length] ?? '';
      open(
        wsUrl(origin, `/api/v1/visits/${c.visitId}/turnSocket?key=${encodeURIComponent(c.key)}`),
        (data) => {
          const at = Date.now();
          turnMessages += 1;
          bytesToTurns += Buffer.byteLength(data);
          const message = asRecord(JSON.parse(data));
          const turn = asRecord(message.turn ?? message);
          const told =
            (turn.state === 'called' || turn.state === 'serving') &&
            typeof turn.counter_name === 'string';
          if (told && !turnCalledAt.has(c.visitId)) {
            turnCalledAt.set(c.visitId, at);
            if (turn.state === 'called') sawCalled.add(c.visitId);
          }
        },
        () => {
          turns += 1;
        },
      );
    });
  });
}

async function post(origin: string, path: string, session: string) {
  const res = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return { status: res.status, json: asRecord(await res.json()) };
}

async function callAll(plan: QueueLoadPlan): Promise<void> {
  const pending: Omit<CallRecord, 'boards' | 'turn' | 'sawCalled'>[] = [];
  let refused = 0;
  let firstRefusal: string | null = null;
  const end = Date.now() + plan.callingMs;
  await Promise.all(
    plan.counters.map(async (counter, c) => {
      const origin = plan.origins[c % plan.origins.length] ?? '';
      // Counters do not press in step: each starts at its own moment of the first second.
      await new Promise((r) => setTimeout(r, Math.random() * plan.callEveryMs));
      while (Date.now() < end) {
        const cycle = Date.now();
        const sentAt = Date.now();
        const called = await post(
          origin,
          `/api/v1/queue/counters/${counter.id}/call-next`,
          counter.session,
        );
        const answeredAt = Date.now();
        const visit = asRecord(called.json.visit);
        if (called.status === 200 && typeof visit.number === 'string') {
          pending.push({
            counter: counter.name,
            number: visit.number,
            visitId: String(visit.visit_id),
            sentAt,
            answeredAt,
          });
          const started = await post(
            origin,
            `/api/v1/queue/counters/${counter.id}/start`,
            counter.session,
          );
          if (started.status !== 200) {
            refused += 1;
            firstRefusal ??= `start: ${started.status} ${JSON.stringify(started.json).slice(0, 200)}`;
          }
        } else {
          refused += 1;
          firstRefusal ??= `call-next: ${called.status} ${JSON.stringify(called.json).slice(0, 200)}`;
        }
        // About once a second, with ±20 % of jitter, whatever the answers took.
        const wait = plan.callEveryMs * (0.8 + Math.random() * 0.4) - (Date.now() - cycle);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    }),
  );
  // Late messages still count: give the sockets a few seconds after the last call.
  await new Promise((r) => setTimeout(r, 5000));
  const calls: CallRecord[] = pending.map((p) => ({
    ...p,
    boards: boardSeen.map((seen) => {
      const at = seen.get(`${p.counter}|${p.number}`);
      return at === undefined ? null : at - p.sentAt;
    }),
    turn: turnCalledAt.has(p.visitId) ? (turnCalledAt.get(p.visitId) ?? 0) - p.sentAt : null,
    sawCalled: sawCalled.has(p.visitId),
  }));
  send({
    kind: 'called',
    calls,
    refused,
    firstRefusal,
    boardMessages,
    turnMessages,
    bytesToTurns,
    closedEarly,
  });
}

let plan: QueueLoadPlan | null = null;
let customers: Customer[] = [];
process.on('message', (message: ToQueueLoad) => {
  void (async () => {
    if (message.kind === 'plan') {
      plan = message.plan;
      customers = joinAll(plan);
    } else if (message.kind === 'follow' && plan) {
      await follow(plan, customers);
    } else if (message.kind === 'call' && plan) {
      await callAll(plan);
    } else if (message.kind === 'stop') {
      stopping = true;
      for (const ws of sockets) ws.terminate();
      process.exit(0);
    }
  })();
});
