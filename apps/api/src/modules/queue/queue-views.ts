/** Visits and counters as the API shows them, from the day's read model. */
import type { Counter, QueueVisit, VisitTurn } from '@qless/contract';
import type { Db, VisitRow } from '../../db/schema.js';
import { estimateFor, type QueueDay, servedNow, visitNumber } from './queue-day.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function counterOfDay(day: QueueDay, counterId: string): Counter | null {
  const c = day.counters.find((x) => x.id === counterId);
  if (!c) return null;
  return {
    counter_id: c.id,
    name: c.name,
    service_ids: c.service_ids,
    help_service_ids: c.help_service_ids,
    state: c.state,
    current_visit_id: c.current_visit_id,
  };
}

/**
 * Staff views of `rows`: ticket codes of booked visits and names of counters (retired ones
 * too) are read in one query each.
 */
export async function visitViews(db: Db, day: QueueDay, rows: VisitRow[]): Promise<QueueVisit[]> {
  if (rows.length === 0) return [];
  const bookingIds = [...new Set(rows.map((r) => r.booking_id).filter((b): b is string => !!b))];
  const counterIds = [...new Set(rows.map((r) => r.counter_id).filter((c): c is string => !!c))];
  const [tickets, counters] = await Promise.all([
    bookingIds.length
      ? db
          .selectFrom('bookings')
          .select(['id', 'ticket_code'])
          .where('id', 'in', bookingIds)
          .execute()
      : Promise.resolve([]),
    counterIds.length
      ? db.selectFrom('counters').select(['id', 'name']).where('id', 'in', counterIds).execute()
      : Promise.resolve([]),
  ]);
  const codeOf = new Map(tickets.map((t) => [t.id, t.ticket_code]));
  const counterName = new Map(counters.map((c) => [c.id, c.name]));
  return rows.map((v) => {
    const service = day.services.get(v.service_id);
    const waiting = v.state === 'waiting';
    return {
      visit_id: v.id,
      number: visitNumber(v),
      service_id: v.service_id,
      service_name: service?.name ?? '',
      service_name_fr: service?.name_fr ?? null,
      source: v.source,
      state: v.state,
      customer_name: v.customer_name,
      phone: v.phone,
      booking_id: v.booking_id,
      ticket_code: v.booking_id ? (codeOf.get(v.booking_id) ?? null) : null,
      slot_start: iso(v.slot_start),
      arrived_at: v.arrived_at.toISOString(),
      called_at: iso(v.called_at),
      serving_at: iso(v.serving_at),
      ended_at: iso(v.ended_at),
      counter_id: v.counter_id,
      counter_name: v.counter_id ? (counterName.get(v.counter_id) ?? null) : null,
      recalls: v.recalls,
      priority_category: v.priority_category,
      for_counter_id: v.for_counter_id,
      call_reason: v.call_reason,
      position: waiting ? (day.positions.get(v.id) ?? null) : null,
      estimate: waiting ? estimateFor(day, v) : null,
    };
  });
}

export async function visitView(db: Db, day: QueueDay, row: VisitRow): Promise<QueueVisit> {
  const [view] = await visitViews(db, day, [row]);
  if (!view) throw new Error('visit view');
  return view;
}

/**
 * The customer's turn (no name, no phone): the place and the wait range while waiting, the
 * counter to go to once called. `row` may be an ended visit (not in the day's lists).
 */
export function visitTurn(day: QueueDay, row: VisitRow): VisitTurn {
  const service = day.services.get(row.service_id);
  const waiting = row.state === 'waiting';
  const counter = row.counter_id ? day.counters.find((c) => c.id === row.counter_id) : undefined;
  const held = row.state === 'called' || row.state === 'serving';
  return {
    visit_id: row.id,
    number: visitNumber(row),
    state: row.state,
    organization_name: day.organization.name,
    service_name: service?.name ?? '',
    service_name_fr: service?.name_fr ?? null,
    position: waiting ? (day.positions.get(row.id) ?? null) : null,
    estimate: waiting ? estimateFor(day, row) : null,
    counters_open: servedNow(day, row.service_id),
    counter_name: held ? (counter?.name ?? null) : null,
    called_at: iso(row.called_at),
    recalls: row.recalls,
  };
}
