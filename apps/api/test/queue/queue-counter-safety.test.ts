import type { CounterActionResponse, QueueVisit } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { useCounterApp } from '../support/checkin-helpers.js';
import { emptyQueue, queueApi, queueSms } from '../support/queue-helpers.js';

/**
 * The counter a branch can trust (issue 30 items 1–3, decision 118): no-show only after the
 * recalls, undo within 10 s kept as a visit event, a no-show put back at their old place, a
 * transfer that keeps its place with the visitor's link and SMS following it, and the desk
 * told at check-in when no open counter serves the booking.
 */
describe('the counter’s safety nets', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  const MINUTE = 60_000;
  const SECOND = 1000;
  const staff = () => ctx.staffA.headers;

  const eventsOf = (visitId: string) =>
    s.db
      .selectFrom('visit_events')
      .select(['kind', 'from_state', 'to_state', 'counter_id'])
      .where('visit_id', '=', visitId)
      .orderBy('id')
      .execute();
  const visitRow = (visitId: string) =>
    s.db.selectFrom('visits').selectAll().where('id', '=', visitId).executeTakeFirst();
  async function walkIns(serviceId: string, names: string[], phone?: string) {
    const out: QueueVisit[] = [];
    for (const name of names) {
      s.clock.advance(MINUTE);
      out.push(await q.walkIn(staff(), serviceId, name, phone));
    }
    return out;
  }
  /** Ends every open visit of A and closes its counters, so each test starts afresh. */
  async function fresh() {
    await emptyQueue(s.db, ctx.a.orgId, s.clock.now());
    await s.db
      .updateTable('organizations')
      .set({ queue_max_recalls: 2, queue_transfer_place: 'arrival' })
      .where('id', '=', ctx.a.orgId)
      .execute();
  }
  let counters = 0;
  const open = (serviceIds = [ctx.a.serviceId]) =>
    q.openCounter(ctx.adminA.headers, `Guichet S${++counters}`, serviceIds);
  const act = async (counterId: string, action: string, payload?: unknown) => {
    const res = await q.act(staff(), counterId, action, payload);
    return { status: res.statusCode, body: res.json() };
  };

  it('no-show is refused (409 NO_SHOW_TOO_EARLY) until the set recalls were made; 0 recalls: at once', async () => {
    await fresh();
    const c = await open();
    const [v] = await walkIns(ctx.a.serviceId, ['N1', 'N2']);
    await act(c.counter_id, 'call-next');
    const early = await act(c.counter_id, 'no-show');
    expect(early).toMatchObject({ status: 409, body: { code: 'NO_SHOW_TOO_EARLY' } });
    expect((await visitRow(v?.visit_id ?? ''))?.state).toBe('called');
    await act(c.counter_id, 'recall');
    expect((await act(c.counter_id, 'no-show')).body.code).toBe('NO_SHOW_TOO_EARLY');
    await act(c.counter_id, 'recall');
    const late = await act(c.counter_id, 'no-show');
    expect(late.status).toBe(200);
    expect(late.body.visit.state).toBe('no_show');
    expect(late.body.undo).toMatchObject({ kind: 'no_show', number: v?.number });

    await s.db
      .updateTable('organizations')
      .set({ queue_max_recalls: 0 })
      .where('id', '=', ctx.a.orgId)
      .execute();
    await act(c.counter_id, 'call-next');
    expect((await act(c.counter_id, 'no-show')).status).toBe(200);
  });

  it('undo takes back a call within 10 s, once, as a visit event; later or after another act: 409', async () => {
    await fresh();
    const c = await open();
    const [v1, v2] = await walkIns(ctx.a.serviceId, ['U1', 'U2']);
    const id1 = v1?.visit_id ?? '';
    const called = await act(c.counter_id, 'call-next');
    expect(called.body.undo).toMatchObject({
      kind: 'call_next',
      number: v1?.number,
      until: new Date(s.clock.now().getTime() + 10 * SECOND).toISOString(),
    });
    s.clock.advance(9 * SECOND);
    const undone = await act(c.counter_id, 'undo');
    expect(undone.status).toBe(200);
    expect(undone.body.visit).toMatchObject({ visit_id: id1, state: 'waiting', position: 1 });
    expect(undone.body.counter.current_visit_id).toBeNull();
    expect((await eventsOf(id1)).map((e) => e.kind)).toEqual([
      'entered_staff',
      'called',
      'undone_called',
    ]);
    expect((await visitRow(id1))?.called_at).toBeNull();
    // Once: the undo is now the counter's last transition.
    expect(await act(c.counter_id, 'undo')).toMatchObject({
      status: 409,
      body: { code: 'NOTHING_TO_UNDO' },
    });
    // The same visitor is called again (still first), and this time the window passes.
    expect((await act(c.counter_id, 'call-next')).body.visit.visit_id).toBe(id1);
    s.clock.advance(11 * SECOND);
    expect((await act(c.counter_id, 'undo')).body.code).toBe('NOTHING_TO_UNDO');
    expect((await visitRow(id1))?.state).toBe('called');
    // Start is not undoable and is now the latest: nothing to undo.
    await act(c.counter_id, 'start');
    expect((await act(c.counter_id, 'undo')).body.code).toBe('NOTHING_TO_UNDO');
    // Done, undone: serving again at this counter.
    const done = await act(c.counter_id, 'done');
    expect(done.body.undo).toMatchObject({ kind: 'done' });
    const back = await act(c.counter_id, 'undo');
    expect(back.body.visit).toMatchObject({ visit_id: id1, state: 'serving', ended_at: null });
    expect(back.body.counter.current_visit_id).toBe(id1);
    expect((await eventsOf(id1)).at(-1)).toMatchObject({
      kind: 'undone_done',
      from_state: 'done',
      to_state: 'serving',
      counter_id: c.counter_id,
    });
    // Another organization's staff cannot undo here; v2 never moved.
    const foreign = await q.act(ctx.staffB.headers, c.counter_id, 'undo');
    expect(foreign.statusCode).toBe(403);
    expect((await visitRow(v2?.visit_id ?? ''))?.state).toBe('waiting');
  });

  it('undo of a no-show gives the counter the visitor back, called; of a transfer, the visitor and no second row', async () => {
    await fresh();
    await s.db
      .updateTable('organizations')
      .set({ queue_max_recalls: 0 })
      .where('id', '=', ctx.a.orgId)
      .execute();
    const c = await open();
    await open([ctx.a.otherServiceId]);
    const [v] = await walkIns(ctx.a.serviceId, ['X1']);
    const id = v?.visit_id ?? '';
    await act(c.counter_id, 'call-next');
    await act(c.counter_id, 'no-show');
    s.clock.advance(5 * SECOND);
    const undone = await act(c.counter_id, 'undo');
    expect(undone.body.visit).toMatchObject({ visit_id: id, state: 'called', ended_at: null });
    expect(undone.body.counter.current_visit_id).toBe(id);
    expect((await eventsOf(id)).at(-1)?.kind).toBe('undone_no_show');

    await act(c.counter_id, 'start');
    const moved = await act(c.counter_id, 'transfer', { service_id: ctx.a.otherServiceId });
    expect(moved.body.undo).toMatchObject({ kind: 'transfer', number: v?.number });
    const successor = moved.body.visit.visit_id as string;
    const takenBack = await act(c.counter_id, 'undo');
    expect(takenBack.body.visit).toMatchObject({ visit_id: id, state: 'serving' });
    expect(await visitRow(successor)).toBeUndefined();
    expect((await eventsOf(id)).map((e) => e.kind).slice(-2)).toEqual([
      'transferred_out',
      'undone_transferred_out',
    ]);
  });

  it('a no-show is put back in line at their old place, as a visit event; only a no-show of today', async () => {
    await fresh();
    await s.db
      .updateTable('organizations')
      .set({ queue_max_recalls: 0 })
      .where('id', '=', ctx.a.orgId)
      .execute();
    const c = await open();
    const [p1, p2, p3] = await walkIns(ctx.a.serviceId, ['P1', 'P2', 'P3']);
    const id = p1?.visit_id ?? '';
    await act(c.counter_id, 'call-next');
    await act(c.counter_id, 'no-show');
    s.clock.advance(5 * MINUTE);
    const res = await q.call('POST', `/queue/visits/${id}/return`, staff());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().visit).toMatchObject({ visit_id: id, state: 'waiting', position: 1 });
    const today = (await q.call('GET', '/queue/today', staff())).json();
    const waiting = today.visits
      .filter((x: QueueVisit) => x.state === 'waiting')
      .map((x: QueueVisit) => x.visit_id);
    expect(waiting).toEqual([id, p2?.visit_id, p3?.visit_id]);
    expect((await eventsOf(id)).at(-1)).toMatchObject({
      kind: 'returned',
      from_state: 'no_show',
      to_state: 'waiting',
    });
    // Called next again, at their old place.
    expect((await act(c.counter_id, 'call-next')).body.visit.visit_id).toBe(id);
    // Not a no-show: 409; another organization: 403; unknown: 404.
    const again = await q.call('POST', `/queue/visits/${id}/return`, staff());
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('VISIT_NOT_ACTIONABLE');
    expect(
      (await q.call('POST', `/queue/visits/${p2?.visit_id}/return`, ctx.staffB.headers)).statusCode,
    ).toBe(403);
    expect(
      (await q.call('POST', '/queue/visits/00000000-0000-4000-8000-000000000000/return', staff()))
        .statusCode,
    ).toBe(404);
  });

  it('a transfer keeps the place by original arrival (default), or goes first (setting)', async () => {
    await fresh();
    const here = await open();
    const there = await open([ctx.a.otherServiceId]);
    // T arrived first; O1 and O2 wait in the other line since after T.
    const [t] = await walkIns(ctx.a.serviceId, ['T']);
    await walkIns(ctx.a.otherServiceId, ['O1', 'O2']);
    await act(here.counter_id, 'call-next');
    s.clock.advance(10 * MINUTE);
    const moved = await act(here.counter_id, 'transfer', { service_id: ctx.a.otherServiceId });
    expect(moved.status).toBe(200);
    expect(moved.body.visit).toMatchObject({ number: t?.number, position: 1 });
    const row = await visitRow(moved.body.visit.visit_id);
    // The wait in the new line is still measured from the transfer.
    expect(row?.queued_at.getTime()).toBe(s.clock.now().getTime());
    expect((await act(there.counter_id, 'call-next')).body.visit.number).toBe(t?.number);

    // "First in the new line": ahead of someone who arrived before them.
    await fresh();
    const settings = await q.call('GET', '/queue/settings', ctx.adminA.headers);
    expect(settings.json().settings.transfer_place).toBe('arrival');
    const put = await q.call('PUT', '/queue/settings', ctx.adminA.headers, {
      ...settings.json().settings,
      transfer_place: 'front',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().settings.transfer_place).toBe('front');
    // A client that does not send it keeps the choice.
    const { transfer_place: _omitted, ...older } = put.json().settings;
    const kept = await q.call('PUT', '/queue/settings', ctx.adminA.headers, older);
    expect(kept.json().settings.transfer_place).toBe('front');
    const bad = await q.call('PUT', '/queue/settings', ctx.adminA.headers, {
      ...older,
      transfer_place: 'back',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('INVALID_QUEUE_SETTINGS');

    await q.act(ctx.adminA.headers, here.counter_id, 'open');
    await q.act(ctx.adminA.headers, there.counter_id, 'open');
    const [early] = await walkIns(ctx.a.otherServiceId, ['E1']);
    const [late] = await walkIns(ctx.a.serviceId, ['L1']);
    await act(here.counter_id, 'call-next');
    const first = await act(here.counter_id, 'transfer', { service_id: ctx.a.otherServiceId });
    expect(first.body.visit).toMatchObject({ number: late?.number, position: 1 });
    const next = await act(there.counter_id, 'call-next');
    expect(next.body.visit.number).toBe(late?.number);
    expect(early?.visit_id).toBeDefined();
  });

  it('the visitor’s link and SMS follow the transfer: same phone, a link that opens the new line', async () => {
    await fresh();
    const here = await open();
    await open([ctx.a.otherServiceId]);
    const [w] = await walkIns(ctx.a.serviceId, ['Mbida'], '677001150');
    const rootId = w?.visit_id ?? '';
    const key = s.app.visitAccess.keyFor(rootId);
    await act(here.counter_id, 'call-next');
    await act(here.counter_id, 'start');
    const moved = await act(here.counter_id, 'transfer', { service_id: ctx.a.otherServiceId });
    const newId = (moved.body as CounterActionResponse).visit?.visit_id ?? '';
    expect(newId).not.toBe(rootId);
    // The link the visitor holds (the first visit's id and key) shows the new line.
    const turn = await s.app.inject({
      method: 'GET',
      url: `/api/v1/visits/${rootId}?key=${encodeURIComponent(key)}`,
    });
    expect(turn.statusCode).toBe(200);
    expect(turn.json().turn).toMatchObject({
      visit_id: rootId,
      number: w?.number,
      state: 'waiting',
      position: 1,
    });
    // The new row's "you are next" SMS reaches the same phone with that same link.
    const sms = (await queueSms(s.db, '+237677001150')).filter((m) =>
      m.dedupe_key?.includes(newId),
    );
    expect(sms).toHaveLength(1);
    const link = /\/visit\/([0-9a-f-]{36})[?#]k=([A-Za-z0-9_-]+)/.exec(sms[0]?.text_body ?? '');
    expect(link?.[1]).toBe(rootId);
    const opened = await s.app.inject({
      method: 'GET',
      url: `/api/v1/visits/${link?.[1]}?key=${link?.[2]}`,
    });
    expect(opened.json().turn).toMatchObject({ number: w?.number, state: 'waiting' });
  });

  it('a booked visitor’s ticket link follows a transfer too', async () => {
    await fresh();
    const here = await open();
    await open([ctx.a.otherServiceId]);
    const booking = await s.book(ctx.a, { name: 'Ngo Bassa' });
    const checked = await s.checkIn(staff(), { code: booking.code });
    expect(checked.statusCode).toBe(200);
    await act(here.counter_id, 'call-next');
    await act(here.counter_id, 'transfer', { service_id: ctx.a.otherServiceId });
    const key = s.app.payments.access.keyFor(booking.id);
    const view = await s.app.inject({
      method: 'GET',
      url: `/api/v1/bookings/${booking.id}`,
      headers: { 'x-booking-key': key },
    });
    const visitId = view.json().booking.visit_id;
    const turn = await s.app.inject({
      method: 'GET',
      url: `/api/v1/visits/${visitId}?key=${encodeURIComponent(key)}`,
    });
    expect(turn.json().turn).toMatchObject({ state: 'waiting', position: 1 });
    expect(turn.json().turn.service_name).not.toBe(checked.json().booking.service_name);
  });

  it('check-in answers the queue number and warns when no open counter serves the service', async () => {
    await fresh();
    const first = await s.book(ctx.a, { name: 'Sans Guichet' });
    const none = await s.checkIn(staff(), { code: first.code });
    expect(none.statusCode).toBe(200);
    expect(none.json().queue).toEqual({
      number: expect.stringMatching(/^[A-Z]-\d{3}$/),
      open_counter: false,
    });
    // A counter of another service does not count; one of this service does.
    await open([ctx.a.otherServiceId]);
    const second = await s.book(ctx.a, { name: 'Toujours Sans' });
    expect((await s.checkIn(staff(), { code: second.code })).json().queue.open_counter).toBe(false);
    await open();
    const third = await s.book(ctx.a, { name: 'Avec Guichet' });
    expect((await s.checkIn(staff(), { code: third.code })).json().queue.open_counter).toBe(true);
  });
});
