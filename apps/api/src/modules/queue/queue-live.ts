/**
 * What the public sees of a queue: the board on the wall (numbers only) and one visitor's
 * turn. Built from loadQueueDay's read model, so the hub loads an organization's day once
 * and renders every board and turn of it from memory.
 */
import type { BoardSnapshot, VisitTurn } from '@qless/contract';
import { sql } from 'kysely';
import type { Db, VisitRow } from '../../db/schema.js';
import { estimateFor, loadQueueDay, type QueueDay, servedNow, visitNumber } from './queue-day.js';

/** The board's last call: the latest event that put a visit in 'called' (a call or a recall). */
export type LastCall = BoardSnapshot['last_call'];

/** The board's message without its clock: two equal ones need not be sent twice. */
export type BoardView = Omit<BoardSnapshot, 'server_time'>;

const NEXT_ON_BOARD = 10;

/**
 * The latest call of the organization's day. Its event id is the board's `seq`, so a
 * recall (a new event) chimes again. Candidates: the visits counters hold now (a recall is
 * always one of them) and the visit called last today (it may be done already); the events
 * of these few visits come by their index.
 */
export async function loadLastCall(db: Db, day: QueueDay): Promise<LastCall> {
  const latest = db
    .selectFrom('visits')
    .select('id')
    .where('organization_id', '=', day.organization.id)
    .where('visit_date', '=', day.date)
    .where('called_at', 'is not', null)
    .orderBy('called_at', 'desc')
    .limit(1);
  const held = day.held.map((v) => v.id);
  const row = await db
    .selectFrom('visit_events as e')
    .innerJoin('visits as v', 'v.id', 'e.visit_id')
    .leftJoin('counters as c', (join) =>
      join.on('c.id', '=', sql<string>`coalesce(e.counter_id, v.counter_id)`),
    )
    .select(['e.id', 'e.at', 'v.letter', 'v.number', sql<string | null>`c.name`.as('counter_name')])
    .where((eb) =>
      held.length > 0
        ? eb.or([
            eb('e.visit_id', 'in', held),
            eb('e.visit_id', '=', eb.selectFrom(latest.as('l')).select('l.id')),
          ])
        : eb('e.visit_id', '=', eb.selectFrom(latest.as('l')).select('l.id')),
    )
    .where('e.to_state', '=', 'called')
    .orderBy('e.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    number: visitNumber(row),
    counter_name: row.counter_name ?? '',
    at: row.at.toISOString(),
    seq: Number(row.id),
  };
}

/** An organization's day with its last call, as the live layer shows them. */
export interface LiveDay extends QueueDay {
  lastCall: LastCall;
}

/**
 * The day and its last call read in one snapshot (repeatable read): read apart, a call
 * committed between the two reads reached the board as "last call" while its counter still
 * showed nobody (seen once under CI's load).
 */
export function loadLiveDay(db: Db, organizationId: string, now: Date): Promise<LiveDay> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const day = await loadQueueDay(trx, organizationId, now);
      return { ...day, lastCall: await loadLastCall(trx, day) };
    });
}

/** Now serving per counter (open ones, and any counter still holding someone), and who is next. */
export function boardView(day: QueueDay, lastCall: LastCall): BoardView {
  const held = new Map(day.held.map((v) => [v.id, v]));
  return {
    organization_name: day.organization.name,
    serving: day.counters
      .filter((c) => c.state === 'open' || c.current_visit_id !== null)
      .map((c) => {
        const visit = c.current_visit_id ? held.get(c.current_visit_id) : undefined;
        return {
          counter_name: c.name,
          number: visit ? visitNumber(visit) : null,
          state: visit
            ? visit.state === 'serving'
              ? ('serving' as const)
              : ('called' as const)
            : null,
        };
      }),
    next: day.waiting.slice(0, NEXT_ON_BOARD).map(visitNumber),
    last_call: lastCall,
  };
}

export function boardSnapshot(view: BoardView, now: Date): BoardSnapshot {
  return { ...view, server_time: now.toISOString() };
}

/** A visit's turn as its visitor sees it; `followedId` is the id the visitor asked for. */
export function visitTurn(day: QueueDay, visit: VisitRow, followedId: string): VisitTurn {
  const service = day.services.get(visit.service_id);
  const counter =
    visit.state === 'called' || visit.state === 'serving'
      ? (day.counters.find((c) => c.id === visit.counter_id)?.name ?? null)
      : null;
  const waiting = visit.state === 'waiting';
  return {
    visit_id: followedId,
    number: visitNumber(visit),
    state: visit.state,
    organization_name: day.organization.name,
    service_name: service?.name ?? '',
    service_name_fr: service?.name_fr ?? null,
    position: waiting ? (day.positions.get(visit.id) ?? null) : null,
    estimate: waiting ? estimateFor(day, visit) : null,
    counters_open: servedNow(day, visit.service_id),
    counter_name: counter,
    called_at: visit.called_at?.toISOString() ?? null,
    recalls: visit.recalls,
  };
}

/** Open visits of the day by id, and the open visit each transfer led to. */
export interface OpenIndex {
  byId: Map<string, VisitRow>;
  successorOf: Map<string, VisitRow>;
}

export function openIndex(day: QueueDay): OpenIndex {
  const byId = new Map<string, VisitRow>();
  const successorOf = new Map<string, VisitRow>();
  for (const v of [...day.waiting, ...day.held]) {
    byId.set(v.id, v);
    if (v.transferred_from) successorOf.set(v.transferred_from, v);
  }
  return { byId, successorOf };
}

/**
 * The visit each of `ids` now stands for when it is no longer open today: itself once
 * ended, or where its transfers led. One query per hop for all of them; keyed by the id
 * asked for, missing when there is no such visit.
 */
export async function resolveClosed(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, VisitRow>> {
  const found = new Map<string, VisitRow>();
  if (ids.length === 0) return found;
  // current visit id -> the id asked for
  let hop = new Map<string, string>();
  for (const row of await db.selectFrom('visits').selectAll().where('id', 'in', ids).execute()) {
    if (row.state === 'transferred') hop.set(row.id, row.id);
    found.set(row.id, row);
  }
  // A transfer chain is short (a visitor sent from one service to another once or twice).
  for (let depth = 0; hop.size > 0 && depth < 5; depth++) {
    const next = await db
      .selectFrom('visits')
      .selectAll()
      .where('transferred_from', 'in', [...hop.keys()])
      .execute();
    const following = new Map<string, string>();
    for (const to of next) {
      const root = hop.get(to.transferred_from as string);
      if (root === undefined) continue;
      found.set(root, to);
      if (to.state === 'transferred') following.set(to.id, root);
    }
    hop = following;
  }
  return found;
}

/** One visit's turn in `day` (the poll, and a socket's first message on another process). */
export async function readVisitTurn(
  db: Db,
  day: QueueDay,
  visitId: string,
): Promise<VisitTurn | null> {
  const open = openIndex(day);
  const visit =
    open.byId.get(visitId) ??
    open.successorOf.get(visitId) ??
    (await resolveClosed(db, [visitId])).get(visitId);
  return visit ? visitTurn(day, visit, visitId) : null;
}

/** The board's message for `day` (GET /board/{token}). */
export function readBoard(day: LiveDay, now: Date): BoardSnapshot {
  return boardSnapshot(boardView(day, day.lastCall), now);
}
