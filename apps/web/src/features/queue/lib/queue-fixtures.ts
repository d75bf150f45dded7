import type { Counter, QueueTodayResponse, QueueVisit } from '@qless/contract';

/** A queue as the server answers it, for the feature's tests. */
export const SERVICES: QueueTodayResponse['services'] = [
  { service_id: 's-cash', name: 'Cash desk', name_fr: 'Caisse', letter: 'A', planned_letter: 'A' },
  { service_id: 's-loan', name: 'Loans', name_fr: 'Crédits', letter: 'B', planned_letter: 'B' },
];

export function visit(overrides: Partial<QueueVisit> & { visit_id: string }): QueueVisit {
  return {
    number: 'A-001',
    service_id: 's-cash',
    service_name: 'Cash desk',
    service_name_fr: 'Caisse',
    source: 'staff',
    state: 'waiting',
    customer_name: 'Ada Nkem',
    phone: null,
    booking_id: null,
    ticket_code: null,
    slot_start: null,
    arrived_at: '2026-03-16T08:00:00.000Z',
    called_at: null,
    serving_at: null,
    ended_at: null,
    counter_id: null,
    counter_name: null,
    recalls: 0,
    priority_category: null,
    for_counter_id: null,
    call_reason: null,
    position: null,
    estimate: null,
    ...overrides,
  };
}

export function counter(overrides: Partial<Counter> = {}): Counter {
  return {
    counter_id: 'c1',
    name: 'Guichet 1',
    service_ids: ['s-cash'],
    help_service_ids: [],
    state: 'open',
    current_visit_id: null,
    ...overrides,
  };
}

export function queueToday(visits: QueueVisit[], counters: Counter[]): QueueTodayResponse {
  return {
    organization: { organization_id: 'o1', name: 'Afriland Akwa', time_zone: 'Africa/Douala' },
    date: '2026-03-16',
    server_time: '2026-03-16T09:00:00.000Z',
    settings: {
      grace_early_minutes: 30,
      grace_late_minutes: 15,
      notify_position: 3,
      max_recalls: 2,
      join_enabled: true,
      join_code: false,
      transfer_place: 'arrival',
      priority_categories: [],
      premium_label: null,
      ratio: null,
      ageing_ceiling_minutes: null,
    },
    services: SERVICES,
    counters,
    visits,
  };
}
