import type { VisitTurn } from '@qless/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { type LiveSink, QueueHub } from '../../src/modules/queue/queue-hub.js';
import { useCounterApp } from '../support/checkin-helpers.js';
import { emptyQueue, queueApi } from '../support/queue-helpers.js';

/** A follower's messages, as the hub sent them. */
function recorder() {
  const turns: VisitTurn[] = [];
  const sink: LiveSink = {
    send: (text) => turns.push(JSON.parse(text) as VisitTurn),
    fail: () => undefined,
    end: () => undefined,
  };
  return { sink, turns };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Issue 31 item 1: a far-back visitor's new place is held back (told at most every few
 * seconds), and the render that will tell it is scheduled for then. A call landing meanwhile
 * must not wait for that render: under the queue bench the board and the called customer
 * were told up to three seconds late, because the hub kept the later timer.
 */
describe('the queue hub: a held-back far place delays no call', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  let hub: QueueHub | null = null;
  afterAll(async () => hub?.stop());

  it('a call after a held-back far place reaches the near visitor at once', async () => {
    await emptyQueue(s.db, ctx.a.orgId, s.clock.now());
    // Far places are told once a minute here: the old hub would hold the second call as long.
    hub = new QueueHub({
      db: s.db,
      clock: s.clock,
      log: s.app.log,
      coalesceMs: 20,
      farTurnEveryMs: 60_000,
    });
    await hub.start(s.database);
    const counter = await q.openCounter(ctx.adminA.headers, 'Guichet P', [ctx.a.serviceId]);
    const visits = [];
    for (let i = 1; i <= 14; i++) {
      s.clock.advance(1_000);
      visits.push(await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, `Visitor ${i}`));
    }
    const near = recorder();
    const far = recorder();
    hub.followTurn(ctx.a.orgId, visits[3]?.visit_id ?? '', near.sink);
    hub.followTurn(ctx.a.orgId, visits[13]?.visit_id ?? '', far.sink);
    await until(() => near.turns.length > 0 && far.turns.length > 0, 'the first messages');
    expect(near.turns.at(-1)?.position).toBe(4);
    expect(far.turns.at(-1)?.position).toBe(14);

    const act = async (action: string) => {
      const res = await q.act(ctx.staffA.headers, counter.counter_id, action);
      expect(res.statusCode, res.body).toBe(200);
    };
    // The first call: the near visitor is told 3rd; the far one's 13th is held back.
    await act('call-next');
    await until(() => near.turns.at(-1)?.position === 3, 'the near visitor told 3rd');
    await act('start');
    // The second call (it ends the first visit): told at once, the far place still held.
    await act('call-next');
    await until(() => near.turns.at(-1)?.position === 2, 'the near visitor told 2nd');
    expect(far.turns.map((t) => t.position)).toEqual([14]);
  });
});
