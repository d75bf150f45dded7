/**
 * A transfer (decision 118): the visit a counter holds goes to another service's line.
 */
import type { Db, VisitRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { assertActiveService, notActionable } from './queue-settle.js';
import { insertVisit, transitionVisit } from './visits.repository.js';

/**
 * The held visit goes to another service's line, keeping its letter and number, and its
 * place as the organization chose (decision 118): by its first arrival in the branch, or
 * first in the new line.
 */
export async function transferVisit(
  trx: Db,
  held: VisitRow,
  serviceId: string | null,
  counterId: string,
  by: string,
  now: Date,
): Promise<VisitRow> {
  if (!serviceId) throw new AppError(400, 'INVALID_ID', 'Say which service to transfer to.');
  if (serviceId === held.service_id) {
    throw notActionable('This visitor is already in this service: choose another one.');
  }
  await assertActiveService(trx, held.organization_id, serviceId);
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
      clientAddress: held.client_address,
      createdBy: by,
      keep: { letter: held.letter, number: held.number, from: held.id },
    },
    now,
  );
}
