// engines: postgres and pglite — two calls in one second, ordered by their events' ids
import {
  BOARD_CALL_LIVE_SECONDS,
  type BoardSnapshot,
  boardSnapshotSchema,
  type Counter,
} from '@qless/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useCounterApp } from '../support/checkin-helpers.js';
import { listen, ORIGIN } from '../support/payment-helpers.js';
import { queueApi } from '../support/queue-helpers.js';
import { messageLog } from '../support/queue-live-helpers.js';

/**
 * The board's calls (issue 30, items 5 and 6, decision 119), driven through the counter's
 * own routes: every call of a busy second reaches the board in order with its seq, and the
 * banner's `live` says only what a visitor may still walk to.
 */
describe('the board’s calls', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  let token: string;
  let host: string;
  let g1: Counter;
  let g2: Counter;

  /** The board as a TV switched on now would read it (the hub's cached day expired first). */
  async function board(): Promise<BoardSnapshot> {
    // A loaded day answers polls for 5 s of the clock: step past it so the read is fresh.
    s.clock.advance(6_000);
    const res = await s.app.inject({ method: 'GET', url: `/api/v1/board/${token}` });
    expect(res.statusCode, res.body).toBe(200);
    return boardSnapshotSchema.parse(res.json());
  }
  const act = async (counter: Counter, action: string, payload?: unknown) => {
    const res = await q.act(ctx.staffA.headers, counter.counter_id, action, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ visit: { number: string } | null }>();
  };
  const liveOf = (b: BoardSnapshot) => b.calls.filter((c) => c.live).map((c) => c.number);

  beforeAll(async () => {
    host = await listen(s.app);
    const created = await s.app.inject({
      method: 'POST',
      url: '/api/v1/queue/boards',
      headers: ctx.adminA.headers,
      payload: { name: 'Hall' },
    });
    token = created.json<{ token: string }>().token;
    g1 = await q.openCounter(ctx.adminA.headers, 'Guichet 1', [ctx.a.serviceId]);
    g2 = await q.openCounter(ctx.adminA.headers, 'Guichet 2', [
      ctx.a.serviceId,
      ctx.a.otherServiceId,
    ]);
    for (const name of ['Ada', 'Bello', 'Chantal', 'Dieudonné', 'Eto', 'Fadimatou']) {
      s.clock.advance(60_000);
      await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, name);
    }
  });

  it('a board switched on before the first call shows no call at all', async () => {
    const b = await board();
    expect(b.calls).toEqual([]);
    expect(b.last_call).toBeNull();
  });

  it('two counters calling in the same second: both calls reach the board, in order, each with its seq', async () => {
    const { ws, log } = await openSocket();
    await log.next(() => true);
    const mark = log.messages.length;
    // The clock is pinned: both calls are made in the same second, at once.
    const [first, second] = await Promise.all([act(g1, 'call-next'), act(g2, 'call-next')]);
    const numbers = [first.visit?.number, second.visit?.number];
    expect(new Set(numbers).size).toBe(2);
    const both = await log.next((m) => (m.calls as unknown[]).length === 2, mark);
    const calls = (both as BoardSnapshot).calls;
    // Newest first; the two seqs differ and follow the commit order.
    expect(calls[0]?.seq).toBeGreaterThan(calls[1]?.seq ?? Number.POSITIVE_INFINITY);
    expect(calls.map((c) => c.number).sort()).toEqual([...numbers].sort());
    expect(calls.every((c) => c.live)).toBe(true);
    expect(calls[0]?.at).toBe(calls[1]?.at);
    expect((both as BoardSnapshot).last_call).toMatchObject({
      number: calls[0]?.number,
      seq: calls[0]?.seq,
    });
    ws.close();
    // A board opened a moment later reads the same two calls.
    expect((await board()).calls.map((c) => c.seq)).toEqual(calls.map((c) => c.seq));
  });

  it('a call started, transferred, done or followed by a pause is over: no longer live', async () => {
    let b = await board();
    const atG1 = b.serving.find((r) => r.counter_name === 'Guichet 1')?.number;
    const atG2 = b.serving.find((r) => r.counter_name === 'Guichet 2')?.number;
    expect(liveOf(b).sort()).toEqual([atG1, atG2].sort());

    // Guichet 2 transfers its visitor to the other service: the call is over.
    await act(g2, 'transfer', { service_id: ctx.a.otherServiceId });
    b = await board();
    expect(liveOf(b)).toEqual([atG1]);
    expect(b.calls.find((c) => c.number === atG2)?.live).toBe(false);

    // Guichet 1 starts serving: its call is over too.
    await act(g1, 'start');
    b = await board();
    expect(liveOf(b)).toEqual([]);
    expect(b.calls).toHaveLength(2);

    // A recall is a new call (new seq, live); the call before it is not live.
    const third = await act(g2, 'call-next');
    await act(g2, 'recall');
    b = await board();
    // (With a transfer that keeps its place, the third call may be the transferred visitor
    // called again: only this call and its recall are compared.)
    const ofThird = b.calls.filter((c) => c.number === third.visit?.number).slice(0, 2);
    expect(ofThird.map((c) => c.live)).toEqual([true, false]);
    expect(ofThird[0]?.seq).toBeGreaterThan(ofThird[1]?.seq ?? 0);

    // Served, then the counter pauses: nothing live, and the counter reads "paused".
    await act(g2, 'start');
    await act(g2, 'done');
    await act(g2, 'pause');
    await act(g1, 'done');
    b = await board();
    expect(liveOf(b)).toEqual([]);
    expect(b.serving).toContainEqual({
      counter_name: 'Guichet 2',
      number: null,
      state: null,
      paused: true,
    });
    expect(b.serving).toContainEqual({
      counter_name: 'Guichet 1',
      number: null,
      state: null,
      paused: false,
    });
    // The last calls stay listed (people who missed their call look there).
    expect(b.calls.length).toBeGreaterThanOrEqual(4);
  });

  it(`a call left unanswered stops being live after ${BOARD_CALL_LIVE_SECONDS} s: a board opened later shows no banner`, async () => {
    const called = await act(g1, 'call-next');
    let b = await board();
    expect(liveOf(b)).toEqual([called.visit?.number]);
    s.clock.advance(BOARD_CALL_LIVE_SECONDS * 1000);
    b = await board();
    expect(liveOf(b)).toEqual([]);
    // Still held at the counter: its row says so, and the list keeps the call.
    expect(b.serving.find((r) => r.counter_name === 'Guichet 1')).toMatchObject({
      number: called.visit?.number,
      state: 'called',
    });
    expect(b.calls[0]?.number).toBe(called.visit?.number);
  });

  async function openSocket() {
    const ws = new WebSocket(`ws://${host}/api/v1/board/${token}/socket`, {
      headers: { origin: ORIGIN },
    });
    return { ws, log: messageLog(ws) };
  }
});
