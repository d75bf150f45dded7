/**
 * The queue bench's figures (bench/queue.ts): from what the load process saw, each target
 * met or not — Call next answered, the boards and the called customer's page in time, and
 * the server memory per follower.
 */
import type { Figure, MemoryUsage } from './live-processes.js';
import type { CallRecord, FromQueueLoad } from './queue-load.js';

export type Engine = 'pglite' | 'postgres';

export interface Sizes {
  counters: number;
  boards: number;
  customers: number;
  callingMs: number;
}

const inMemory = (m: MemoryUsage) => m.heapUsed + m.external;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export function figuresOf(
  engine: Engine,
  processes: number,
  sizes: Sizes,
  r: {
    joined: Extract<FromQueueLoad, { kind: 'joined' }>;
    following: Extract<FromQueueLoad, { kind: 'following' }>;
    called: Extract<FromQueueLoad, { kind: 'called' }>;
    memory: {
      before: MemoryUsage[];
      withFollowers: MemoryUsage[];
      after: MemoryUsage[];
      rssBefore: number[];
      rssWith: number[];
    };
  },
): Figure[] {
  const calls: CallRecord[] = r.called.calls;
  const toBoard = calls
    .flatMap((c) => c.boards)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  const boardMisses = calls.reduce((n, c) => n + c.boards.filter((v) => v === null).length, 0);
  const toTurn = calls
    .map((c) => c.turn)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  const turnMisses = calls.filter((c) => c.turn === null).length;
  const answers = calls.map((c) => c.answeredAt - c.sentAt).sort((a, b) => a - b);
  const followers = r.following.boards + r.following.turns;
  const sum = (ms: MemoryUsage[]) => ms.reduce((n, m) => n + inMemory(m), 0);
  const heapDelta = sum(r.memory.withFollowers) - sum(r.memory.before);
  const rssDelta =
    r.memory.rssWith.reduce((a, b) => a + b, 0) - r.memory.rssBefore.reduce((a, b) => a + b, 0);
  const mb = (n: number) => (n / 1048576).toFixed(1);
  const where = processes === 2 ? '2 processes' : '1 process';
  const seconds = sizes.callingMs / 1000;
  const common =
    `${sizes.counters} counters for ${seconds} s, ${calls.length} calls ` +
    `(${(calls.length / seconds).toFixed(1)}/s; ${r.called.refused} refused` +
    `${r.called.firstRefusal ? `, first: ${r.called.firstRefusal}` : ''}); ` +
    `${r.following.boards}/${sizes.boards} boards and ${r.following.turns}/${r.joined.ok} customers following ` +
    `(${r.joined.ok} joined in ${r.joined.seconds.toFixed(1)} s, ${r.joined.failed} refused` +
    `${r.joined.firstError ? `: ${r.joined.firstError}` : ''}; ${r.following.failed} sockets refused` +
    `${r.following.firstError ? `: ${r.following.firstError}` : ''}; ${r.called.closedEarly} closed early)`;
  const p99Board = quantile(toBoard, 0.99);
  const p99Turn = quantile(toTurn, 0.99);
  const p99Answer = quantile(answers, 0.99);
  const complete = calls.length > 0 && r.following.failed === 0 && r.joined.failed === 0;
  // A clerk's tap answered, and the hall shown, in a blink: two processes on PostgreSQL; the
  // embedded default (one process, one transaction at a time) is allowed twice as long.
  const target = engine === 'postgres' ? { answer: 150, shown: 500 } : { answer: 300, shown: 1000 };
  return [
    {
      name: `queue: Call next answered, p99 (${where})`,
      engine,
      value: Math.round(p99Answer),
      unit: 'ms',
      target: `<= ${target.answer} ms`,
      met: complete && p99Answer <= target.answer,
      detail:
        `p50 ${Math.round(quantile(answers, 0.5))} ms, p99 ${Math.round(p99Answer)} ms, ` +
        `max ${Math.round(quantile(answers, 1))} ms over ${answers.length} calls (the clerk's request leaving to its answer, on the load process's clock)`,
    },
    {
      name: `queue: Call next -> board shows it, p99 (${where})`,
      engine,
      value: Math.round(p99Board),
      unit: 'ms',
      target: `<= ${target.shown} ms`,
      met: complete && boardMisses === 0 && p99Board <= target.shown,
      detail:
        `p50 ${Math.round(quantile(toBoard, 0.5))} ms, p99 ${Math.round(p99Board)} ms, ` +
        `max ${Math.round(quantile(toBoard, 1))} ms over ${toBoard.length} (call, board) pairs; ` +
        `${boardMisses} never shown; ${r.called.boardMessages} board messages. ${common}`,
    },
    {
      name: `queue: Call next -> called customer's page, p99 (${where})`,
      engine,
      value: Math.round(p99Turn),
      unit: 'ms',
      target: `<= ${target.shown} ms`,
      met: complete && turnMisses === 0 && p99Turn <= target.shown,
      detail:
        `p50 ${Math.round(quantile(toTurn, 0.5))} ms, p99 ${Math.round(p99Turn)} ms, ` +
        `max ${Math.round(quantile(toTurn, 1))} ms over ${toTurn.length} calls; ${turnMisses} never told ` +
        `(${calls.filter((c) => c.sawCalled).length} saw "called" itself, the others "being served at" their counter first); ` +
        `Call next answered p50 ${Math.round(quantile(answers, 0.5))} ms, p99 ${Math.round(quantile(answers, 0.99))} ms; ` +
        `${r.called.turnMessages} turn messages, ${(r.called.bytesToTurns / Math.max(1, r.called.turnMessages)).toFixed(0)} B each on average ` +
        `(${(r.called.bytesToTurns / Math.max(1, r.following.turns) / 1024).toFixed(1)} KB per customer over ${seconds} s)`,
    },
    {
      name: `queue: server memory per follower (heap + external after GC, ${where})`,
      engine,
      value: followers > 0 ? Math.round((heapDelta / followers / 1024) * 10) / 10 : Number.NaN,
      unit: 'KB/follower',
      target: 'reported',
      met: followers > 0,
      detail:
        `${followers} followers (${r.following.boards} boards + ${r.following.turns} customers); ` +
        `heap+external ${mb(sum(r.memory.before))} MB -> ${mb(sum(r.memory.withFollowers))} MB ` +
        `(${mb(sum(r.memory.after))} MB after the calls); RSS ${mb(r.memory.rssBefore.reduce((a, b) => a + b, 0))} MB -> ` +
        `${mb(r.memory.rssWith.reduce((a, b) => a + b, 0))} MB (${followers > 0 ? (rssDelta / followers / 1024).toFixed(1) : '?'} KB/follower), ` +
        `${where} together`,
    },
  ];
}
