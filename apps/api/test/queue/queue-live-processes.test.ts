// also with redis — queue changes across two apps through the relay
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FixedClock } from '../../src/core/clock.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { signedIn } from '../support/auth-helpers.js';
import { createFixture, type Fixture } from '../support/fixtures.js';
import { listen, NO_LIMITS, ORIGIN } from '../support/payment-helpers.js';
import { messageLog } from '../support/queue-live-helpers.js';
import { createTestApp, PINNED_NOW } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';

// Two processes' connections to one PostgreSQL URL: PostgreSQL in either project (PGlite is
// one process; its in-process fan-out is what queue-board and queue-turn exercise there).
describe('the queue on two server processes sharing one PostgreSQL', () => {
  let tdb: TestDatabase;
  let other: Database;
  let appA: FastifyInstance;
  let appB: FastifyInstance;
  let hostB: string;
  let fx: Fixture;
  const clock = new FixedClock(PINNED_NOW);

  beforeAll(async () => {
    tdb = await createTestDatabase('postgres');
    other = await openDatabase({ databaseUrl: tdb.url, dataDir: null });
    // One clock for both processes, as one wall clock is for real ones.
    ({ app: appA } = await createTestApp(tdb.database, { env: NO_LIMITS, clock }));
    ({ app: appB } = await createTestApp(other, { env: NO_LIMITS, clock }));
    hostB = await listen(appB);
    fx = await createFixture(tdb.database, new Date(PINNED_NOW));
  });
  afterAll(async () => {
    await appA?.close();
    await appB?.close();
    await other?.close();
    await tdb?.cleanup();
  });

  it('a call made on A reaches the board and the turn held by B; a board revoked on A closes on B', async () => {
    const db = tdb.database.db;
    const admin = await signedIn(appA, db, {
      email: 'admin@proc.cm',
      role: 'org_admin',
      organizationId: fx.orgId,
    });
    const staff = await signedIn(appA, db, {
      email: 'staff@proc.cm',
      role: 'staff',
      organizationId: fx.orgId,
    });
    const created = await appA.inject({
      method: 'POST',
      url: '/api/v1/queue/boards',
      headers: admin.headers,
      payload: { name: 'Hall' },
    });
    const { token, board } = created.json<{ token: string; board: { board_id: string } }>();
    const counter = await appA.inject({
      method: 'POST',
      url: '/api/v1/queue/counters',
      headers: admin.headers,
      payload: { name: 'Guichet 1', service_ids: [fx.serviceId] },
    });
    const counterId = counter.json().counter.counter_id as string;
    const walkIns: string[] = [];
    for (const name of ['Eto Jean', 'Abena Rose']) {
      const walkIn = await appA.inject({
        method: 'POST',
        url: '/api/v1/queue/visits',
        headers: staff.headers,
        payload: { service_id: fx.serviceId, name },
      });
      expect(walkIn.statusCode, walkIn.body).toBe(201);
      walkIns.push(walkIn.json().visit.visit_id as string);
      // Arrivals a minute apart: first come, first served decides between them.
      clock.advance(60_000);
    }
    const visitId = walkIns[1] as string;
    const key = appA.visitAccess.keyFor(visitId);

    const boardWs = new WebSocket(`ws://${hostB}/api/v1/board/${token}/socket`, {
      headers: { origin: ORIGIN },
    });
    const boardLog = messageLog(boardWs);
    const boardClosed = new Promise<number>((resolve) => boardWs.on('close', (c) => resolve(c)));
    const turnWs = new WebSocket(`ws://${hostB}/api/v1/visits/${visitId}/turnSocket?key=${key}`, {
      headers: { origin: ORIGIN },
    });
    const turnLog = messageLog(turnWs);
    expect(await boardLog.next(() => true)).toMatchObject({ serving: [], last_call: null });
    expect(await turnLog.next(() => true)).toMatchObject({ position: 2, state: 'waiting' });

    for (const action of ['open', 'call-next']) {
      const res = await appA.inject({
        method: 'POST',
        url: `/api/v1/queue/counters/${counterId}/${action}`,
        headers: staff.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const called = await boardLog.next((m) => m.last_call !== null);
    expect(called).toMatchObject({
      serving: [{ counter_name: 'Guichet 1', number: expect.any(String), state: 'called' }],
      last_call: { counter_name: 'Guichet 1' },
    });
    expect(await turnLog.next((m) => m.position === 1)).toMatchObject({ state: 'waiting' });

    // The clerk finishes the first and calls the walk-in: B's turn socket says where to go.
    const next = await appA.inject({
      method: 'POST',
      url: `/api/v1/queue/counters/${counterId}/start`,
      headers: staff.headers,
    });
    expect(next.statusCode, next.body).toBe(200);
    const second = await appA.inject({
      method: 'POST',
      url: `/api/v1/queue/counters/${counterId}/call-next`,
      headers: staff.headers,
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(await turnLog.next((m) => m.state === 'called')).toMatchObject({
      counter_name: 'Guichet 1',
    });

    const revoked = await appA.inject({
      method: 'DELETE',
      url: `/api/v1/queue/boards/${board.board_id}`,
      headers: admin.headers,
    });
    expect(revoked.statusCode).toBe(200);
    expect(await boardClosed).toBe(4404);
    expect(boardLog.messages.at(-1)?.json).toMatchObject({ error: { code: 'BOARD_NOT_FOUND' } });
    turnWs.close();
  });
});
