/**
 * A walk-in's slip (decision 135), printed at the kiosk or the counter: the number, where and
 * when, the place and estimate as the line stood, and the two ways back to the turn.
 */
import type { VisitSlip } from '@qless/contract';
import type { Db, VisitRow } from '../../db/schema.js';
import type { QueueDay } from './queue-day.js';
import { visitTurn } from './queue-views.js';
import type { TurnMessages } from './turn-messages.js';

export async function visitSlip(
  db: Db,
  day: QueueDay,
  visit: VisitRow,
  turns: TurnMessages,
): Promise<VisitSlip> {
  const turn = visitTurn(day, visit);
  const links = await turns.slipLinks(db, visit);
  return {
    visit_id: visit.id,
    number: turn.number,
    organization_name: turn.organization_name,
    service_name: turn.service_name,
    service_name_fr: turn.service_name_fr,
    issued_at: visit.arrived_at.toISOString(),
    time_zone: day.organization.time_zone,
    position: turn.position,
    estimate: turn.estimate,
    counters_open: turn.counters_open,
    follow_code: links.followCode,
    follow_url: links.followUrl,
    visit_url: links.visitUrl,
  };
}
