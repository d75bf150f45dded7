/**
 * What every change of a queue ends or starts with: announcing it and reading the day again
 * (with the SMS it calls for), and the checks of a service and a counter.
 */
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { type AuthContext, assertOrganizationAccess } from '../auth/auth-guard.js';
import { findCounter } from './counters.repository.js';
import { loadQueueDay, type QueueDay } from './queue-day.js';
import { notifyQueueChanged } from './queue-events.js';
import type { TurnMessages } from './turn-messages.js';

/**
 * After a change (same transaction): the day as it now stands, and the "you are N-th" SMS it
 * calls for. Returns the day for the answer.
 */
export async function settle(
  trx: Db,
  organizationId: string,
  now: Date,
  turns: TurnMessages | null,
): Promise<QueueDay> {
  await notifyQueueChanged(trx, organizationId);
  const day = await loadQueueDay(trx, organizationId, now);
  if (turns) await turns.afterChange(trx, day);
  return day;
}

/**
 * After a change to a visit a counter holds (start, recall, done, no-show): nobody entered
 * or left the waiting line, so no place moved and no "you are N-th" SMS is due; the day is
 * read without its line (see loadQueueDay).
 */
export async function settleHeld(trx: Db, organizationId: string, now: Date): Promise<QueueDay> {
  await notifyQueueChanged(trx, organizationId);
  return loadQueueDay(trx, organizationId, now, { line: false });
}

/** 404 unless the service is an active one of the organization. */
export async function assertActiveService(db: Db, organizationId: string, serviceId: string) {
  const service = await db
    .selectFrom('services')
    .select(['id', 'active'])
    .where('id', '=', serviceId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!service?.active) {
    throw new AppError(404, 'SERVICE_NOT_FOUND', 'No such service in this organization.');
  }
}

/** A counter still in use, of an organization the caller may act on. */
export async function counterOf(db: Db, auth: AuthContext, counterId: string) {
  const counter = await findCounter(db, counterId);
  if (!counter || counter.retired_at) {
    throw new AppError(404, 'COUNTER_NOT_FOUND', 'No such counter.');
  }
  assertOrganizationAccess(auth, counter.organization_id);
  return counter;
}
