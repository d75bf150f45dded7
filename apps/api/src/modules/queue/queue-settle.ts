/**
 * What every change of a queue ends or starts with: announcing it and reading the day again
 * (with the SMS it calls for), and the checks of a service and a counter.
 */

import type { AuthContext } from '../../core/access/auth-guard.js';
import { assertOrganizationAccess } from '../../core/access/roles.js';
import { placeName } from '../../core/organizations.repository.js';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { findCounter } from './counters.repository.js';
import { loadQueueDay, type QueueDay } from './queue-day.js';
import { notifyQueueChanged } from './queue-events.js';
import type { TurnMessages } from './turn-messages.js';
import { inTransaction } from './visits.repository.js';

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
 * After a counter's change has committed (no queue lock held): the day as it now stands,
 * and the "you are N-th" SMS it calls for, in a transaction of their own. Each SMS is
 * claimed by a conditional update of its visit (near_notified_at), so two settles running
 * at once never send one twice; each decides on the day it read, which is at least as new
 * as the change. Holding the organization's lock only for the change itself is what lets
 * twenty counters call at once without queueing behind each other's reads (decision 126).
 */
export async function settleAfterCommit(
  db: Db,
  organizationId: string,
  now: Date,
  turns: TurnMessages | null,
): Promise<QueueDay> {
  return inTransaction(db, async (trx) => {
    const day = await loadQueueDay(trx, organizationId, now);
    if (turns) await turns.afterChange(trx, day);
    return day;
  });
}

/** The organization as its customers' messages name it ("Banque X (Akwa)"). */
export async function organizationName(db: Db, organizationId: string): Promise<string> {
  const row = await db
    .selectFrom('organizations')
    .select(placeName('organizations').as('name'))
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return row.name;
}

/** 409: the visit is not in a state this act applies to. */
export const notActionable = (message: string) =>
  new AppError(409, 'VISIT_NOT_ACTIONABLE', message);

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
