/**
 * A transfer (decision 118): the visit a counter holds goes to another service's line, or to
 * a named counter (decision 139).
 */
import type { Db, VisitRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { assertActiveService, notActionable } from './queue-settle.js';
import { insertVisit, transitionVisit } from './visits.repository.js';

/** The counter a transfer names: of the visit's branch, standing, not the one sending. */
async function namedCounter(trx: Db, held: VisitRow, id: string, from: string): Promise<string> {
  if (id === from) throw notActionable('This visitor is already at this counter.');
  const counter = await trx
    .selectFrom('counters')
    .select(['id', 'state'])
    .where('id', '=', id)
    .where('organization_id', '=', held.organization_id)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
  if (!counter)
    throw new AppError(404, 'COUNTER_NOT_FOUND', 'No counter of this branch has this id.');
  if (counter.state === 'closed') {
    throw new AppError(
      409,
      'TRANSFER_COUNTER_CLOSED',
      'That counter is closed: choose an open one, or a service.',
    );
  }
  return counter.id;
}

/**
 * The held visit goes to another service's line, or to a named counter (only that counter
 * calls it while it stands; its service is kept unless another is given), keeping its letter
 * and number, and its place as the organization chose (decision 118): by its first arrival in
 * the branch, or first in the new line.
 */
export async function transferVisit(
  trx: Db,
  held: VisitRow,
  to: { service_id?: string | undefined; counter_id?: string | undefined },
  counterId: string,
  by: string,
  now: Date,
): Promise<VisitRow> {
  const serviceId = to.service_id ?? (to.counter_id ? held.service_id : null);
  if (!serviceId) {
    throw new AppError(400, 'INVALID_ID', 'Say which service or counter to transfer to.');
  }
  const forCounterId = to.counter_id
    ? await namedCounter(trx, held, to.counter_id, counterId)
    : null;
  if (serviceId === held.service_id && !forCounterId) {
    throw notActionable('This visitor is already in this service: choose another one.');
  }
  await assertActiveService(trx, held.organization_id, serviceId);
  // Even to a named counter: once it closes, the visitor is back in this service's line.
  const served = await trx
    .selectFrom('counter_services as cs')
    .innerJoin('counters as c', 'c.id', 'cs.counter_id')
    .select('c.id')
    .where('cs.service_id', '=', serviceId)
    .where('c.retired_at', 'is', null)
    .executeTakeFirst();
  if (!served) {
    throw new AppError(
      409,
      'SERVICE_NOT_AT_COUNTER',
      'No counter serves this service: the visitor would wait for nobody.',
    );
  }
  const { queue_transfer_place: place } = await trx
    .selectFrom('organizations')
    .select('queue_transfer_place')
    .where('id', '=', held.organization_id)
    .executeTakeFirstOrThrow();
  const left = await transitionVisit(
    trx,
    held,
    {
      from: [held.state],
      to: 'transferred',
      kind: 'transferred_out',
      set: { ended_at: now },
      counterId,
      byUser: by,
    },
    now,
  );
  if (!left) throw notActionable('This visitor moved meanwhile.');
  return insertVisit(
    trx,
    {
      organizationId: held.organization_id,
      serviceId,
      date: held.visit_date,
      source: held.source,
      bookingId: held.booking_id,
      customerName: held.customer_name,
      phone: held.phone,
      locale: held.locale,
      slotStart: null,
      arrivedAt: held.arrived_at,
      queuedAt: now,
      placeAt: place === 'arrival' ? held.arrived_at : null,
      ahead: place === 'front',
      priorityCategory: held.priority_category,
      forCounterId,
      clientAddress: held.client_address,
      createdBy: by,
      keep: { letter: held.letter, number: held.number, from: held.id },
    },
    now,
  );
}
