import { createHash } from 'node:crypto';
import {
  CALLS_RECORD_TYPE,
  type CallsRecordResponse,
  type Counter,
  type QueueTodayResponse,
} from '@qless/contract';
import { base64url, compactVerify, importJWK, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { useCounterApp } from '../support/checkin-helpers.js';
import { emptyQueue, queueApi } from '../support/queue-helpers.js';

/**
 * The signed record of the day's calls (decision 139): checked here as an outsider would, with
 * the deployment's public key and SHA-256 alone — the signature, the chain, and that a later
 * record only adds to an earlier one.
 */
describe('the signed record of the day’s calls', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  let desk: Counter;
  let date = '';

  const act = async (action: string, payload?: unknown) => {
    const res = await q.act(ctx.staffA.headers, desk.counter_id, action, payload);
    expect(res.statusCode, res.body).toBe(200);
  };
  const record = async () => {
    s.clock.advance(11_000); // past the seconds a record leaves out
    const res = await q.call('GET', `/queue/calls-record?date=${date}`, ctx.adminA.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<CallsRecordResponse>();
  };
  /** The chain as an outsider recomputes it from the entries. */
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const chainOf = (r: CallsRecordResponse['record']) => {
    let previous = sha256(`qless-calls:${r.organization_id}:${r.date}`);
    expect(r.genesis).toBe(previous);
    return r.calls.map(({ hash: _hash, ...entry }) => {
      const { seq, at, kind, number, counter, clerk, reason } = entry;
      previous = sha256(
        `${previous}\n${JSON.stringify({ seq, at, kind, number, counter, clerk, reason })}`,
      );
      return previous;
    });
  };

  beforeAll(async () => {
    await emptyQueue(s.db, ctx.a.orgId, s.clock.now());
    desk = await q.openCounter(ctx.adminA.headers, 'Registre', [ctx.a.serviceId]);
    date = (await q.call('GET', '/queue/today', ctx.staffA.headers)).json<QueueTodayResponse>()
      .date;
  });

  it('is signed by the deployment’s key, chained, names no visitor, and only grows', async () => {
    const first = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Secret Nom Un', '677001001');
    s.clock.advance(60_000); // after the first: Call next calls the first
    const chosen = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Secret Nom Deux');
    await act('call-next');
    await act('recall');
    await act('start');
    await act('call-visit', { visit_id: chosen.visit_id, reason: 'urgent' });
    const early = await record();
    expect(early.record.calls.map((c) => [c.kind, c.number, c.reason])).toEqual([
      ['called', first.number, null],
      ['recalled', first.number, null],
      ['called', chosen.number, 'urgent'],
    ]);
    expect(
      early.record.calls.every((c) => c.clerk === ctx.staffA.id && c.counter === desk.counter_id),
    ).toBe(true);
    expect(early.record.counters).toEqual({ [desk.counter_id]: 'Registre' });
    expect(JSON.stringify(early)).not.toMatch(/Secret|677001001/);

    // The signature: the public key of GET /tickets/public-key, nothing else.
    const keys = (await q.call('GET', '/tickets/public-key', null)).json<{ keys: JWK[] }>().keys;
    const key = await importJWK(keys[0] as JWK, 'EdDSA');
    const verified = await compactVerify(early.jws, key);
    expect(verified.protectedHeader).toMatchObject({ alg: 'EdDSA', typ: CALLS_RECORD_TYPE });
    expect(JSON.parse(new TextDecoder().decode(verified.payload))).toEqual(early.record);
    // The chain: each hash from the one before.
    expect(chainOf(early.record)).toEqual(early.record.calls.map((c) => c.hash));
    expect(early.record.head).toBe(early.record.calls.at(-1)?.hash);
    // One number changed in the signed payload: the signature no longer holds.
    const [header, , signature] = early.jws.split('.');
    const forged = {
      ...early.record,
      calls: early.record.calls.map((c) => ({ ...c, number: 'A-999' })),
    };
    const payload = base64url.encode(JSON.stringify(forged));
    await expect(compactVerify(`${header}.${payload}.${signature}`, key)).rejects.toThrow();

    // Later — the counter renamed, a call and its Undo — the earlier entries stay as they were.
    const renamed = await q.call(
      'PATCH',
      `/queue/counters/${desk.counter_id}`,
      ctx.adminA.headers,
      {
        name: 'Registre 2',
      },
    );
    expect(renamed.statusCode).toBe(200);
    await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Secret Nom Trois');
    await act('start');
    await act('call-next');
    await act('undo');
    const later = await record();
    expect(later.record.calls.slice(0, early.record.calls.length)).toEqual(early.record.calls);
    expect(later.record.calls.map((c) => c.kind).slice(early.record.calls.length)).toEqual([
      'called',
      'undone_called',
    ]);
    expect(chainOf(later.record)).toEqual(later.record.calls.map((c) => c.hash));
    expect(later.record.counters).toEqual({ [desk.counter_id]: 'Registre 2' });
  });

  it('is the admin’s; a bad date is named', async () => {
    const staff = await q.call('GET', `/queue/calls-record?date=${date}`, ctx.staffA.headers);
    expect(staff.statusCode).toBe(403);
    const bad = await q.call('GET', '/queue/calls-record?date=2026-13-01', ctx.adminA.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('INVALID_DATE');
    // An operator naming no organization that exists gets a 404, not an empty signed record.
    const none = await q.call(
      'GET',
      `/queue/calls-record?date=${date}&organization_id=00000000-0000-4000-8000-000000000000`,
      ctx.operator.headers,
    );
    expect(none.statusCode).toBe(404);
  });
});
