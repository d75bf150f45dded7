import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../../src/db/database.js';
import type { OutboxRow } from '../../src/db/schema.js';
import type { OutboxWorker } from '../../src/modules/outbox/outbox.module.js';
import { initiateBody } from './fixtures.js';
import type { useSimulatorApp } from './simulator-harness.js';

type Harness = ReturnType<typeof useSimulatorApp>;

/** The app's outbox worker, swept by hand in tests that stop its own sweeping. */
export function outboxWorker(app: FastifyInstance): OutboxWorker {
  const worker = app.messaging.worker;
  if (!worker) throw new Error('no outbox worker (OUTBOX_WORKER_ENABLED is off)');
  return worker;
}

/** The outbox rows of one booking, in a stable order (kind, then channel). */
export function outboxOf(database: Database, bookingId: string): Promise<OutboxRow[]> {
  return database.db
    .selectFrom('outbox')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy('kind')
    .orderBy('channel')
    .execute();
}

/**
 * Books a slot and pays for it with the simulator (its signed success callback), as a
 * customer does. Returns the booking's id.
 */
export async function bookAndPay(
  h: Harness,
  overrides: Record<string, unknown> & { slotIndex?: number } = {},
): Promise<{ bookingId: string; paymentId: string; date: string }> {
  const date = (overrides.date as string | undefined) ?? h.nextDate();
  const res = await h.initiate(initiateBody(h.fx, { date, ...overrides }));
  expect(res.statusCode).toBe(201);
  const payment = res.json().payment as { payment_id: string; booking_id: string };
  const settled = await h.callback(payment.payment_id, 'SUCCESSFUL');
  expect(settled.json()).toMatchObject({ outcome: 'confirmed' });
  return { bookingId: payment.booking_id, paymentId: payment.payment_id, date };
}
