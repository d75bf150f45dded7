// engines: postgres and pglite — the queue hub's LISTEN fan-out (in process on PGlite)
import { boardSnapshotSchema } from '@qless/contract';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { QUEUE_CHANNEL } from '../../src/modules/queue/queue-events.js';
import { useStack } from '../support/app-fixture.js';
import { bearer, signedIn } from '../support/auth-helpers.js';
import { TODAY, useCounterApp } from '../support/checkin-helpers.js';
import { listen, ORIGIN } from '../support/payment-helpers.js';
import { messageLog, queueWriter } from '../support/queue-live-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

const at = (minutes: number) => new Date(Date.parse(PINNED_NOW) + minutes * 60_000);

function openBoardSocket(host: string, token: string) {
  const ws = new WebSocket(`ws://${host}/api/v1/board/${token}/socket`, {
    headers: { origin: ORIGIN },
  });
  const log = messageLog(ws);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return { ws, log, closed };
}

describe('the board on the wall', () => {
  const t = useCounterApp();
  const { ctx } = t;
  let host: string;
  let token: string;
  let boardId: string;
  let q: ReturnType<typeof queueWriter>;
  let guichet1: string;
  let guichet2: string;
  const visits: string[] = [];

  beforeAll(async () => {
    host = await listen(t.app);
    q = queueWriter(t.db, ctx.a.orgId, TODAY);
    guichet1 = await q.counter('Guichet 1', [ctx.a.serviceId]);
    guichet2 = await q.counter('Guichet 2', [ctx.a.serviceId, ctx.a.otherServiceId]);
    await q.counter('Guichet 3', [ctx.a.serviceId], 'closed');
    for (let i = 0; i < 12; i++) {
      const v = await q.visit(ctx.a.serviceId, at(-60 + i), {
        name: `Mbarga Secret${i}`,
        phone: `+23767700${String(i).padStart(4, '0')}`,
      });
      visits.push(v.id);
    }
  });

  it('board links: the admin creates one (the token shown once), lists and revokes them', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/queue/boards',
      headers: ctx.adminA.headers,
      payload: { name: 'Hall TV' },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json<{ board: { board_id: string }; token: string }>();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    token = body.token;
    boardId = body.board.board_id;
    // Only the hash is kept.
    const stored = await t.db
      .selectFrom('boards')
      .select('token_hash')
      .where('id', '=', boardId)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(token);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/queue/boards',
      headers: ctx.adminA.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(token);
    expect(list.json().boards).toEqual([
      { board_id: boardId, name: 'Hall TV', created_at: expect.any(String), revoked_at: null },
    ]);
  });

  it('board links are the admin’s: staff, no session, another organization and the board token itself are refused', async () => {
    const bodies = [
      { headers: ctx.staffA.headers, status: 403 },
      { headers: {}, status: 401 },
      // A board token is not a session.
      { headers: bearer(token), status: 401 },
    ];
    for (const { headers, status } of bodies) {
      const post = await t.app.inject({
        method: 'POST',
        url: '/api/v1/queue/boards',
        headers,
        payload: { name: 'Nope' },
      });
      expect(post.statusCode).toBe(status);
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/queue/boards/${boardId}`,
        headers,
      });
      expect(del.statusCode).toBe(status);
    }
    // Another organization's board is not found by its operator-less admin.
    const other = await t.app.inject({
      method: 'POST',
      url: `/api/v1/queue/boards?organization_id=${ctx.b.orgId}`,
      headers: ctx.operator.headers,
      payload: { name: 'B hall' },
    });
    expect(other.statusCode).toBe(201);
    const foreign = other.json<{ board: { board_id: string } }>().board.board_id;
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/queue/boards/${foreign}`,
      headers: ctx.adminA.headers,
    });
    expect(del.statusCode).toBe(404);
    expect(del.json().code).toBe('BOARD_NOT_FOUND');
    // A board token opens no write route of the counter.
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/v1/organization/checkins',
      headers: bearer(token),
      payload: { code: 'QL-AAAA-AAAA-AAAA' },
    });
    expect(write.statusCode).toBe(401);
  });

  it('shows now serving per open counter, the next ten in calling order and the last call; numbers only', async () => {
    await q.move(visits[0] as string, 'called', at(-5), guichet1);
    await q.move(visits[0] as string, 'serving', at(-4));
    await q.move(visits[1] as string, 'called', at(-2), guichet2);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/board/${token}` });
    expect(res.statusCode).toBe(200);
    const snapshot = boardSnapshotSchema.parse(res.json());
    expect(snapshot).toEqual({
      organization_name: expect.stringContaining('Guichet Unique'),
      server_time: new Date(PINNED_NOW).toISOString(),
      serving: [
        { counter_name: 'Guichet 1', number: 'A-001', state: 'serving', paused: false },
        { counter_name: 'Guichet 2', number: 'A-002', state: 'called', paused: false },
      ],
      next: [
        'A-003',
        'A-004',
        'A-005',
        'A-006',
        'A-007',
        'A-008',
        'A-009',
        'A-010',
        'A-011',
        'A-012',
      ],
      last_call: {
        number: 'A-002',
        counter_name: 'Guichet 2',
        at: at(-2).toISOString(),
        seq: expect.any(Number),
      },
      // Newest first. A-002 is still called but two minutes ago: past the banner's 90 s, so
      // not live (decision 119); A-001's call ended when serving started.
      calls: [
        {
          number: 'A-002',
          counter_name: 'Guichet 2',
          at: at(-2).toISOString(),
          seq: expect.any(Number),
          out_of_order: false,
          live: false,
        },
        {
          number: 'A-001',
          counter_name: 'Guichet 1',
          at: at(-5).toISOString(),
          seq: expect.any(Number),
          out_of_order: false,
          live: false,
        },
      ],
    });
    // Never a name or a phone number on a public screen, in any form.
    expect(res.body).not.toMatch(/Mbarga|Secret|\+237|677000|Visitor/);
    expect(Object.keys(res.json()).sort()).toEqual([
      'calls',
      'last_call',
      'next',
      'organization_name',
      'server_time',
      'serving',
    ]);
    expect(res.headers['cache-control']).toBe('no-store');
    // The visit's key route does not open with a board token either.
    const turn = await t.app.inject({
      method: 'GET',
      url: `/api/v1/visits/${visits[2]}?key=${token}`,
    });
    expect(turn.statusCode).toBe(403);
  });

  it('its socket sends the snapshot at once, then each change; a recall chimes again (seq)', async () => {
    const { ws, log } = openBoardSocket(host, token);
    const first = await log.next(() => true);
    const seq0 = (first.last_call as { seq: number }).seq;
    expect(first.serving).toHaveLength(2);

    const mark = log.messages.length;
    await q.move(visits[0] as string, 'done', at(1));
    await q.move(visits[2] as string, 'called', at(1), guichet1);
    const called = await log.next(
      (m) => (m.last_call as { number: string }).number === 'A-003',
      mark,
    );
    const seq1 = (called.last_call as { seq: number }).seq;
    expect(seq1).toBeGreaterThan(seq0);
    expect(called.serving).toEqual([
      { counter_name: 'Guichet 1', number: 'A-003', state: 'called', paused: false },
      { counter_name: 'Guichet 2', number: 'A-002', state: 'called', paused: false },
    ]);
    expect((called.next as string[])[0]).toBe('A-004');

    // A recall of the visit at Guichet 2: the same number, a new seq.
    const before = log.messages.length;
    await q.move(visits[1] as string, 'called', at(2));
    const recalled = await log.next((m) => (m.last_call as { seq: number }).seq > seq1, before);
    expect(recalled.last_call).toMatchObject({ number: 'A-002', counter_name: 'Guichet 2' });

    // Every message, as sent: numbers only, and small.
    for (const m of log.messages) {
      expect(m.text).not.toMatch(/Mbarga|Secret|\+237|677000/);
      expect(Buffer.byteLength(m.text)).toBeLessThan(1024);
    }
    ws.close();
  });

  it('after a reconnect of the listener (empty payload) every board reloads', async () => {
    const { ws, log } = openBoardSocket(host, token);
    await log.next(() => true);
    const mark = log.messages.length;
    // A change whose notification was lost...
    await q.move(visits[3] as string, 'left', at(3), null, { notify: false });
    await new Promise((r) => setTimeout(r, 200));
    expect(log.messages.length).toBe(mark);
    // ...is picked up when the listener says it may have missed some.
    await sql`select pg_notify(${QUEUE_CHANNEL}, '')`.execute(t.db);
    const after = await log.next((m) => !(m.next as string[]).includes('A-004'), mark);
    expect(after.next).not.toContain('A-004');
    ws.close();
  });

  it('a revoked board is refused, and its open socket is closed', async () => {
    const { log, closed } = openBoardSocket(host, token);
    await log.next(() => true);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/queue/boards/${boardId}`,
      headers: ctx.adminA.headers,
    });
    expect(del.statusCode).toBe(200);
    expect(del.json().board.revoked_at).not.toBeNull();
    const end = await closed;
    expect(end.code).toBe(4404);
    expect(log.messages.at(-1)?.json).toEqual({
      error: { code: 'BOARD_NOT_FOUND', message: expect.any(String) },
    });
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/board/${token}` });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('BOARD_NOT_FOUND');
    // A new socket is refused before the upgrade.
    const refused = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://${host}/api/v1/board/${token}/socket`, {
        headers: { origin: ORIGIN },
      });
      ws.on('unexpected-response', (_req, r) => resolve(r.statusCode ?? 0));
      ws.on('open', () => reject(new Error('upgraded')));
    });
    expect(refused).toBe(404);
    // Revoked is kept, not deleted.
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/queue/boards',
      headers: ctx.adminA.headers,
    });
    expect(list.json().boards[0]).toMatchObject({
      board_id: boardId,
      revoked_at: expect.any(String),
    });
  });

  it('an unknown or malformed token is a 404', async () => {
    for (const bad of ['x'.repeat(43), 'short', `${'A'.repeat(42)}!`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/board/${encodeURIComponent(bad)}`,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('BOARD_NOT_FOUND');
    }
  });
});

describe("a board's link in the request log", () => {
  const logs: string[] = [];
  const s = useStack({
    env: { LOG_LEVEL: 'info' },
    logStream: { write: (line) => logs.push(line) },
  });

  it('is never written: whoever reads the logs could put the queue on any screen', async () => {
    const admin = await signedIn(s.app, s.database.db, {
      email: 'admin@log.cm',
      role: 'org_admin',
      organizationId: s.fx.orgId,
    });
    const created = await s.app.inject({
      method: 'POST',
      url: '/api/v1/queue/boards',
      headers: admin.headers,
      payload: { name: 'Hall' },
    });
    const { token } = created.json<{ token: string }>();
    logs.length = 0;
    expect((await s.app.inject({ method: 'GET', url: `/api/v1/board/${token}` })).statusCode).toBe(
      200,
    );
    await s.app.inject({ method: 'GET', url: `/api/v1/board/${token}/socket` });
    await s.app.inject({ method: 'GET', url: `/board/${token}` });
    const text = logs.join('\n');
    expect(text).toContain('/api/v1/board/[redacted]');
    expect(text).not.toContain(token);
  });
});
