// engines: postgres and pglite — payments across the processes of one server (the reconciler, callbacks) on each engine
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FixedClock } from '../../src/core/clock.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { signSimulatorCallback } from '../../src/providers/simulator.js';
import { createFixture, initiateBody } from '../support/fixtures.js';
import {
  NO_LIMITS as LIMITS,
  listen,
  ORIGIN,
  simulatorSuccessFields,
  statusOf,
} from '../support/payment-helpers.js';
import { createTestApp, PINNED_NOW } from '../support/test-app.js';
import {
  createTestDatabase,
  openMigratedPgliteOnDisk,
  type TestDatabase,
} from '../support/test-db.js';
import { recordSocket } from '../support/ws.js';

describe('restart in the middle of a payment', () => {
  // Two processes one after the other on one database (a data folder on disk on PGlite): not a
  // stack's app, which lives as long as its block.
  const engine = inject('engine');
  let dataDir: string | null = null;
  let tdb: TestDatabase | null = null;
  afterAll(async () => {
    await tdb?.cleanup();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('loses nothing: the next process settles the payment', async () => {
    let database: Database;
    const reopen = async () => {
      if (engine === 'pglite') {
        const db = await openDatabase({ databaseUrl: null, dataDir: dataDir as string });
        await migrateToLatest(db.db);
        return db;
      }
      return openDatabase({ databaseUrl: tdb?.url as string, dataDir: null });
    };
    if (engine === 'pglite') {
      dataDir = await mkdtemp(path.join(tmpdir(), 'qless-restart-'));
      database = await openMigratedPgliteOnDisk(dataDir);
    } else {
      tdb = await createTestDatabase(engine);
      database = tdb.database;
    }
    const clock = new FixedClock(PINNED_NOW);
    const first = await createTestApp(database, {
      clock,
      env: { ...LIMITS, SIMULATOR_DELAY_MS: '5000' },
    });
    const fx = await createFixture(database, clock.now());
    const res = await first.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(fx),
    });
    const id = res.json().payment.payment_id as string;
    // The process stops before the provider's answer arrives.
    await first.app.close();
    if (engine === 'pglite') await database.close();

    const database2 = engine === 'pglite' ? await reopen() : database;
    clock.advance(30_000);
    const second = await createTestApp(database2, { clock, env: LIMITS });
    try {
      expect((await statusOf(second.app, id)).status).toBe('PENDING');
      await second.app.payments.reconciler.sweep();
      const after = await statusOf(second.app, id);
      expect(after.status).toBe('SUCCESSFUL');
      expect(after.ticket).not.toBeNull();
    } finally {
      await second.app.close();
      if (engine === 'pglite') await database2.close();
    }
  });
});

describe.runIf(inject('engine') === 'postgres')('two server processes on one PostgreSQL', () => {
  // Two processes' connections to one PostgreSQL URL, which a stack does not make: run by the
  // PostgreSQL project only (the PGlite project ran them on PostgreSQL again).
  let tdb: TestDatabase;
  let other: Database;
  let appA: FastifyInstance;
  let appB: FastifyInstance;
  let hostB: string;

  beforeAll(async () => {
    tdb = await createTestDatabase('postgres');
    other = await openDatabase({ databaseUrl: tdb.url, dataDir: null });
    // Long simulator delay: only the explicit callback to A settles the payment.
    ({ app: appA } = await createTestApp(tdb.database, {
      env: { ...LIMITS, SIMULATOR_DELAY_MS: '600000' },
    }));
    ({ app: appB } = await createTestApp(other, {
      env: { ...LIMITS, SIMULATOR_DELAY_MS: '600000' },
    }));
    hostB = await listen(appB);
  });
  afterAll(async () => {
    await appA?.close();
    await appB?.close();
    await other?.close();
    await tdb?.cleanup();
  });

  it('a callback received by A reaches the socket held by B', async () => {
    const fx = await createFixture(tdb.database, new Date(PINNED_NOW));
    const res = await appA.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(fx),
    });
    const id = res.json().payment.payment_id as string;
    let subscribed!: () => void;
    const firstMessage = new Promise<void>((resolve) => {
      subscribed = resolve;
    });
    const recording = recordSocket(`ws://${hostB}/api/v1/payment/${id}/statusSocket`, ORIGIN, {
      onMessage: () => subscribed(),
    });
    // B has answered with the current status, so its socket is subscribed.
    await firstMessage;
    const { fields, key } = await simulatorSuccessFields(tdb.database.db, id);
    const signature = await signSimulatorCallback(key, fields, new Date(PINNED_NOW));
    const cb = await appA.inject({
      method: 'POST',
      url: '/api/v1/payment/callback/simulator',
      payload: { ...fields, signature },
    });
    expect(cb.json()).toMatchObject({ outcome: 'confirmed' });
    const rec = await recording;
    expect(rec.messages[0]).toMatchObject({ status: 'PENDING' });
    expect(rec.messages.at(-1)).toMatchObject({
      status: 'SUCCESSFUL',
      ticket: { customer_name: 'Ngono Marie' },
    });
  });

  it('two reconcilers sweeping at once check each payment once', async () => {
    const clock = new FixedClock(PINNED_NOW);
    // The simulator's own settle timer (real time) must not fire while ten payments are
    // started on a loaded machine; the pinned clock, moved a minute, makes them due.
    const env = { ...LIMITS, SIMULATOR_DELAY_MS: '30000' };
    const first = await createTestApp(tdb.database, { clock, env });
    const fx = await createFixture(tdb.database, clock.now(), '-sweep');
    const ids: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const res = await first.app.inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        // One number each: a number has one pending payment at most.
        payload: initiateBody(fx, {
          slotIndex: i,
          date: '2026-03-06',
          phone_number: `67712340${i}`,
        }),
      });
      ids.push(res.json().payment.payment_id as string);
    }
    // Closing stops the simulator's own settle timers: only the sweeps may settle these.
    await first.app.close();
    const a = await createTestApp(tdb.database, { clock, env });
    const b = await createTestApp(other, { clock, env });
    try {
      clock.advance(60_000);
      const [ra, rb] = await Promise.all([
        a.app.payments.reconciler.sweep(),
        b.app.payments.reconciler.sweep(),
      ]);
      expect(ra.checked + rb.checked).toBe(10);
      for (const id of ids) expect((await statusOf(b.app, id)).status).toBe('SUCCESSFUL');
      const events = await tdb.database.db
        .selectFrom('payment_events')
        .select(['payment_id', 'outcome'])
        .where('payment_id', 'in', ids)
        .execute();
      expect(events.filter((e) => e.outcome === 'confirmed')).toHaveLength(10);
      expect(events).toHaveLength(10);
    } finally {
      await a.app.close();
      await b.app.close();
    }
  });
});
