// engines: postgres and pglite — an Undo withdraws pending SMS (LIKE on the outbox) under the queue lock
import { type BoardSnapshot, boardSnapshotSchema, type QueueVisit } from '@qless/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useCounterApp } from '../support/checkin-helpers.js';
import { listen, ORIGIN } from '../support/payment-helpers.js';
import { emptyQueue, queueApi, queueSms } from '../support/queue-helpers.js';
import { messageLog } from '../support/queue-live-helpers.js';

/**
 * What an Undo takes back besides the visit's state (issue 30 item 1, decision 118, found in
 * review): the SMS it caused while still waiting to leave, the Done a Call next made, the
 * board's call; and what it may not do (a counter paused since holds nobody). The visitor's
 * live page follows a transfer taken back.
 */
describe('an Undo takes back everything its act caused', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  const MINUTE = 60_000;
  const staff = () => ctx.staffA.headers;
  let host: string;
  let token: string;
  let counters = 0;

  beforeAll(async () => {
    // What an Undo withdraws is what has not left yet: the outbox worker sweeping beside the
    // tests (every 5 s) once sent a "you are next" between a transfer and its Undo, and the
    // SMS could not be withdrawn. Nothing leaves here; the tests read the outbox.
    await s.app.messaging.worker?.stopSweeping();
    host = await listen(s.app);
    const board = await q.call('POST', '/queue/boards', ctx.adminA.headers, { name: 'Hall' });
    token = board.json<{ token: string }>().token;
    await s.db
      .updateTable('organizations')
      .set({ queue_max_recalls: 0, queue_notify_position: 1 })
      .where('id', '=', ctx.a.orgId)
      .execute();
  });

  /** Ends every open visit of A and closes its counters, so each test starts afresh. */
  async function fresh() {
    await emptyQueue(s.db, ctx.a.orgId, s.clock.now());
  }
  const open = (serviceIds = [ctx.a.serviceId]) =>
    q.openCounter(ctx.adminA.headers, `Guichet U${++counters}`, serviceIds);
  const act = async (counterId: string, action: string, payload?: unknown) => {
    const res = await q.act(staff(), counterId, action, payload);
    return { status: res.statusCode, body: res.json() };
  };
  async function walkIn(name: string, phone?: string): Promise<QueueVisit> {
    s.clock.advance(MINUTE);
    return q.walkIn(staff(), ctx.a.serviceId, name, phone);
  }
  const stateOf = async (visitId: string) =>
    (await s.db.selectFrom('visits').select('state').where('id', '=', visitId).executeTakeFirst())
      ?.state;
  const feedbackSms = (phone: string) =>
    s.db
      .selectFrom('outbox')
      .select(['status', 'next_attempt_at'])
      .where('kind', '=', 'visit_feedback')
      .where('to_address', '=', phone)
      .execute();
  async function board(): Promise<BoardSnapshot> {
    s.clock.advance(6_000);
    const res = await s.app.inject({ method: 'GET', url: `/api/v1/board/${token}` });
    return boardSnapshotSchema.parse(res.json());
  }

  it('a call taken back: its SMS withdrawn, the board forgets it; the next real call sends its own SMS', async () => {
    await fresh();
    const g1 = await open();
    const g2 = await open();
    const phone = '+237677100001';
    const v = await walkIn('Undo SMS', phone);
    const before = (await board()).calls.length;
    await act(g1.counter_id, 'call-next');
    expect((await queueSms(s.db, phone)).filter((m) => m.kind === 'queue_called')).toHaveLength(1);
    expect((await act(g1.counter_id, 'undo')).status).toBe(200);
    // The "go to Guichet U1" SMS had not left: withdrawn.
    expect((await queueSms(s.db, phone)).filter((m) => m.kind === 'queue_called')).toEqual([]);
    const afterUndo = await board();
    expect(afterUndo.calls.filter((c) => c.number === v.number)).toEqual([]);
    expect(afterUndo.calls).toHaveLength(before);

    s.clock.advance(MINUTE);
    const called = await act(g2.counter_id, 'call-next');
    expect(called.body.visit.visit_id).toBe(v.visit_id);
    const sms = (await queueSms(s.db, phone)).filter((m) => m.kind === 'queue_called');
    expect(sms).toHaveLength(1);
    expect(sms[0]?.text_body).toContain(g2.name);
    expect((await board()).calls.filter((c) => c.number === v.number)).toHaveLength(1);
  });

  it('a no-show taken back is no new call on the board (no second chime)', async () => {
    await fresh();
    const g = await open();
    const v = await walkIn('Undo no-show');
    await act(g.counter_id, 'call-next');
    const seqs = (await board()).calls.map((c) => c.seq);
    await act(g.counter_id, 'no-show');
    expect((await act(g.counter_id, 'undo')).status).toBe(200);
    expect(await stateOf(v.visit_id)).toBe('called');
    expect((await board()).calls.map((c) => c.seq)).toEqual(seqs);
  });

  it('a Call next that finished the visitor being served: Undo gives both back, the feedback SMS withdrawn', async () => {
    await fresh();
    const g = await open();
    const phone = '+237677100002';
    const served = await walkIn('Being served', phone);
    const next = await walkIn('Next one');
    await act(g.counter_id, 'call-next');
    await act(g.counter_id, 'start');
    s.clock.advance(MINUTE);
    const tapped = await act(g.counter_id, 'call-next');
    expect(tapped.body.visit.visit_id).toBe(next.visit_id);
    expect(await stateOf(served.visit_id)).toBe('done');
    // The feedback SMS waits for the Undo window before it may leave.
    const [queued] = await feedbackSms(phone);
    expect(queued?.next_attempt_at?.getTime()).toBeGreaterThan(s.clock.now().getTime() + 10_000);

    const undone = await act(g.counter_id, 'undo');
    expect(undone.status).toBe(200);
    expect(undone.body.visit).toMatchObject({ visit_id: served.visit_id, state: 'serving' });
    expect(undone.body.counter.current_visit_id).toBe(served.visit_id);
    expect(await stateOf(next.visit_id)).toBe('waiting');
    expect(await feedbackSms(phone)).toEqual([]);
  });

  it('Done, then Pause, then Undo: refused — a paused counter holds nobody', async () => {
    await fresh();
    const g = await open();
    const v = await walkIn('Pause between');
    await act(g.counter_id, 'call-next');
    await act(g.counter_id, 'start');
    await act(g.counter_id, 'done');
    expect((await act(g.counter_id, 'pause')).status).toBe(200);
    const undo = await act(g.counter_id, 'undo');
    expect(undo).toMatchObject({ status: 409, body: { code: 'NOTHING_TO_UNDO' } });
    expect(await stateOf(v.visit_id)).toBe('done');
  });

  it('a transfer taken back: the new line’s SMS withdrawn, the visitor’s live page back on the first line', async () => {
    await fresh();
    await s.db
      .updateTable('organizations')
      .set({ queue_transfer_place: 'front' })
      .where('id', '=', ctx.a.orgId)
      .execute();
    const g = await open([ctx.a.serviceId]);
    await open([ctx.a.otherServiceId]);
    const phone = '+237677100003';
    const v = await walkIn('Transfer back', phone);
    await act(g.counter_id, 'call-next');
    const key = s.app.visitAccess.keyFor(v.visit_id);
    const ws = new WebSocket(
      `ws://${host}/api/v1/visits/${v.visit_id}/turnSocket?key=${encodeURIComponent(key)}`,
      { headers: { origin: ORIGIN } },
    );
    const log = messageLog(ws);
    const first = await log.next((m) => m.state === 'called');
    const sent = (await queueSms(s.db, phone)).map((m) => m.dedupe_key);
    await act(g.counter_id, 'transfer', { service_id: ctx.a.otherServiceId });
    const moved = await log.next((m) => m.state === 'waiting');
    expect(moved.service_name).not.toBe(first.service_name);
    // First in the new line: "you are next" queued at once, for the new visit.
    const afterTransfer = await queueSms(s.db, phone);
    expect(afterTransfer.filter((m) => !sent.includes(m.dedupe_key)).map((m) => m.kind)).toEqual([
      'queue_near',
    ]);
    expect((await act(g.counter_id, 'undo')).status).toBe(200);
    expect((await queueSms(s.db, phone)).map((m) => m.dedupe_key).sort()).toEqual(sent.sort());
    const back = await log.next((m) => m.state === 'called');
    expect(back).toMatchObject({ visit_id: v.visit_id, service_name: first.service_name });
    ws.close();
    await s.db
      .updateTable('organizations')
      .set({ queue_transfer_place: 'arrival' })
      .where('id', '=', ctx.a.orgId)
      .execute();
  });

  it('a visitor who left from their phone by mistake is put back in line by the staff', async () => {
    await fresh();
    await open();
    const v = await walkIn('Left by mistake');
    const later = await walkIn('Came later');
    const key = s.app.visitAccess.keyFor(v.visit_id);
    const left = await q.call('POST', `/visits/${v.visit_id}/leave`, null, { key });
    expect(left.statusCode, left.body).toBe(200);
    const back = await q.call('POST', `/queue/visits/${v.visit_id}/return`, staff());
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().visit).toMatchObject({ state: 'waiting', position: 1 });
    expect(await stateOf(later.visit_id)).toBe('waiting');
  });
});
