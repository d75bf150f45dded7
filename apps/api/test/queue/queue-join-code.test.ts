// engines: postgres and pglite — the hall's code: tries counted per address in rate counters (decision 125)
import type { BoardJoinCode, JoinInfoResponse } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { JOIN_CODE_SECRET, joinCodeOf, joinCodeWindow } from '../../src/modules/queue/join-code.js';
import { useCounterApp } from '../support/checkin-helpers.js';
import { queueApi } from '../support/queue-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

type Headers = Record<string, string>;
const WINDOW_MS = 120_000;
/** The default of `queue-join-code-tries` (hall-limits.ts). */
const TRIES = 10;

describe('the code shown in the hall (issue 31 item 3c, decision 125)', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  let ip = 0;
  /** Each join from an address of its own unless told (5 joins an hour per address). */
  const join = (organizationId: string, serviceId: string, code?: string, from?: string) =>
    q.call(
      'POST',
      `/join/${organizationId}`,
      null,
      { service_id: serviceId, name: 'Walk In', ...(code !== undefined ? { code } : {}) },
      from ?? `10.125.${Math.floor(++ip / 200)}.${(ip % 200) + 1}`,
    );
  const settings = async (headers: Headers, patch: Record<string, unknown>, orgId?: string) => {
    const scope = orgId ? `?organization_id=${orgId}` : '';
    const before = await q.call('GET', `/queue/settings${scope}`, headers);
    const { join_code: _kept, ...old } = before.json().settings;
    const put = await q.call('PUT', `/queue/settings${scope}`, headers, { ...old, ...patch });
    expect(put.statusCode, put.body).toBe(200);
    return put.json().settings;
  };
  const newBoard = async (headers: Headers, orgId?: string) => {
    const scope = orgId ? `?organization_id=${orgId}` : '';
    const res = await q.call('POST', `/queue/boards${scope}`, headers, { name: 'Hall TV' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ token: string }>().token;
  };
  const boardCode = async (token: string) => {
    const res = await q.call('GET', `/board/${token}/join-code`, null);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json<BoardJoinCode>();
  };
  const selfJoins = async (orgId: string) =>
    (
      await s.db
        .selectFrom('visits')
        .select('id')
        .where('organization_id', '=', orgId)
        .where('source', '=', 'self')
        .execute()
    ).length;
  const secret = async () =>
    (
      await s.db
        .selectFrom('app_secrets')
        .select('value')
        .where('name', '=', JOIN_CODE_SECRET)
        .executeTakeFirstOrThrow()
    ).value;
  const at = (ms: number) => s.clock.set(new Date(Date.parse(PINNED_NOW) + ms).toISOString());
  /** Four digits that are neither of `codes`. */
  const otherThan = (...codes: string[]) =>
    ['0000', '0001', '0002'].find((c) => !codes.includes(c)) as string;
  const expectRefused = (res: {
    statusCode: number;
    json(): { code: string; message: string };
  }) => {
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('JOIN_CODE_INVALID');
    expect(res.json().message).toMatch(/code/i);
  };

  let tokenA = '';

  it('off by default: no code asked, none on the board, a join without one enters', async () => {
    tokenA = await newBoard(ctx.adminA.headers);
    const before = await q.call('GET', '/queue/settings', ctx.adminA.headers);
    expect(before.json().settings.join_code).toBe(false);
    // Joins off: the board shows no code either way.
    expect(await boardCode(tokenA)).toEqual({
      required: false,
      code: null,
      // PINNED_NOW (08:30:00Z) starts a window: the next one starts 2 minutes later.
      changes_at: '2026-03-04T08:32:00.000Z',
      // No SMS word for this branch (decision 136).
      sms: null,
    });
    await settings(ctx.adminA.headers, { join_enabled: true });
    const info = (await q.call('GET', `/join/${ctx.a.orgId}`, null)).json<JoinInfoResponse>();
    expect(info.code_required).toBe(false);
    expect((await boardCode(tokenA)).code).toBeNull();
    const joined = await join(ctx.a.orgId, ctx.a.serviceId);
    expect(joined.statusCode, joined.body).toBe(201);
  });

  it('switched on: a join takes the code the board shows, of this window or the previous one', async () => {
    try {
      at(30_000);
      expect((await settings(ctx.adminA.headers, { join_code: true })).join_code).toBe(true);
      // An older client's PUT without join_code keeps it.
      expect((await settings(ctx.adminA.headers, { max_recalls: 2 })).join_code).toBe(true);
      const info = (await q.call('GET', `/join/${ctx.a.orgId}`, null)).json<JoinInfoResponse>();
      expect(info.code_required).toBe(true);

      const shown = await boardCode(tokenA);
      expect(shown.required).toBe(true);
      expect(shown.code).toMatch(/^\d{4}$/);
      expect(shown.changes_at).toBe('2026-03-04T08:32:00.000Z');
      // The design's formula, from the stored secret and the pinned clock.
      const window = joinCodeWindow(s.clock.now());
      expect(shown.code).toBe(joinCodeOf(await secret(), ctx.a.orgId, window));
      const code = shown.code as string;

      // Missing, malformed or wrong: refused, nothing entered.
      const entered = await selfJoins(ctx.a.orgId);
      expectRefused(await join(ctx.a.orgId, ctx.a.serviceId));
      expectRefused(await join(ctx.a.orgId, ctx.a.serviceId, '12a4'));
      expectRefused(await join(ctx.a.orgId, ctx.a.serviceId, `${code}0`));
      const previous = joinCodeOf(await secret(), ctx.a.orgId, window - 1);
      expectRefused(await join(ctx.a.orgId, ctx.a.serviceId, otherThan(code, previous)));
      expect(await selfJoins(ctx.a.orgId)).toBe(entered);

      const right = await join(ctx.a.orgId, ctx.a.serviceId, code);
      expect(right.statusCode, right.body).toBe(201);
      expect(await selfJoins(ctx.a.orgId)).toBe(entered + 1);

      // Two minutes on: a new code on the board, the one read a moment ago still taken.
      at(30_000 + WINDOW_MS);
      const next = await boardCode(tokenA);
      expect(next.changes_at).toBe('2026-03-04T08:34:00.000Z');
      expect(next.code).toBe(joinCodeOf(await secret(), ctx.a.orgId, window + 1));
      const late = await join(ctx.a.orgId, ctx.a.serviceId, code);
      expect(late.statusCode, late.body).toBe(201);
      const fresh = await join(ctx.a.orgId, ctx.a.serviceId, next.code as string);
      expect(fresh.statusCode, fresh.body).toBe(201);

      // Two windows on: the first code is too old (unless it is, by chance, a current one).
      at(30_000 + 2 * WINDOW_MS);
      const now = (await boardCode(tokenA)).code as string;
      if (code !== now && code !== next.code) {
        expectRefused(await join(ctx.a.orgId, ctx.a.serviceId, code));
      }
      expect((await join(ctx.a.orgId, ctx.a.serviceId, now)).statusCode).toBe(201);
    } finally {
      s.clock.set(PINNED_NOW);
    }
  });

  it('wrong codes are counted per address: 429 past the limit; a right code is not a wrong try', async () => {
    try {
      at(10 * 60_000);
      const code = (await boardCode(tokenA)).code as string;
      const previous = joinCodeOf(await secret(), ctx.a.orgId, joinCodeWindow(s.clock.now()) - 1);
      const wrong = otherThan(code, previous);
      // One address: a right code among its tries is given back.
      const honest = '10.126.0.1';
      for (let i = 0; i < TRIES - 1; i++) {
        expectRefused(await join(ctx.a.orgId, ctx.a.serviceId, wrong, honest));
      }
      expect((await join(ctx.a.orgId, ctx.a.serviceId, code, honest)).statusCode).toBe(201);
      expectRefused(await join(ctx.a.orgId, ctx.a.serviceId, wrong, honest));
      // Then its tries are spent: even the right code waits.
      const spent = await join(ctx.a.orgId, ctx.a.serviceId, code, honest);
      expect(spent.statusCode).toBe(429);
      expect(spent.json().code).toBe('TOO_MANY_JOIN_CODE_TRIES');
      const wait = Number(spent.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(600);
      // Another address is not held by it.
      expect((await join(ctx.a.orgId, ctx.a.serviceId, code, '10.126.0.2')).statusCode).toBe(201);
      // Ten minutes later the address may try again.
      at(20 * 60_000);
      const later = (await boardCode(tokenA)).code as string;
      expect((await join(ctx.a.orgId, ctx.a.serviceId, later, honest)).statusCode).toBe(201);
    } finally {
      s.clock.set(PINNED_NOW);
    }
  });

  it("another organization's code does not open this one's line; a bad board token is 404", async () => {
    try {
      await settings(ctx.operator.headers, { join_enabled: true, join_code: true }, ctx.b.orgId);
      const tokenB = await newBoard(ctx.operator.headers, ctx.b.orgId);
      // A window where B's code is neither of A's two accepted codes (nearly always the first).
      let step = 30;
      let codeB = '';
      for (; ; step++) {
        at(step * WINDOW_MS);
        codeB = (await boardCode(tokenB)).code as string;
        const w = joinCodeWindow(s.clock.now());
        const key = await secret();
        const ofA = [w, w - 1].map((x) => joinCodeOf(key, ctx.a.orgId, x));
        if (!ofA.includes(codeB)) break;
      }
      expectRefused(await join(ctx.a.orgId, ctx.a.serviceId, codeB));
      expect((await join(ctx.b.orgId, ctx.b.serviceId, codeB)).statusCode).toBe(201);

      for (const token of ['nope', 'A'.repeat(43)]) {
        const res = await q.call('GET', `/board/${token}/join-code`, null);
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe('BOARD_NOT_FOUND');
      }
      // A revoked board no longer reads the code.
      const boards = await q.call(
        'GET',
        `/queue/boards?organization_id=${ctx.b.orgId}`,
        ctx.operator.headers,
      );
      const boardId = boards.json().boards[0].board_id as string;
      const del = await s.app.inject({
        method: 'DELETE',
        url: `/api/v1/queue/boards/${boardId}?organization_id=${ctx.b.orgId}`,
        headers: ctx.operator.headers,
      });
      expect(del.statusCode).toBe(200);
      expect((await q.call('GET', `/board/${tokenB}/join-code`, null)).statusCode).toBe(404);
    } finally {
      s.clock.set(PINNED_NOW);
    }
  });
});
