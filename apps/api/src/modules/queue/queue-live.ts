/**
 * What the public sees of a queue: the board on the wall (numbers only) and one visitor's
 * turn. Built from loadQueueDay's read model, so the hub loads an organization's day once
 * and renders every board and turn of it from memory.
 */
import {
  BOARD_CALL_LIVE_SECONDS,
  BOARD_RECENT_CALLS,
  type BoardSnapshot,
  type VisitTurn,
} from '@qless/contract';
import { sql } from 'kysely';
import type { Db, VisitRow } from '../../db/schema.js';
import { estimateFor, loadQueueDay, type QueueDay, servedNow, visitNumber } from './queue-day.js';

/** One of the board's recent calls (a call or a recall), with whether it is still live. */
export type BoardCall = BoardSnapshot['calls'][number];

/** The board's message without its clock: two equal ones need not be sent twice. */
export type BoardView = Omit<BoardSnapshot, 'server_time'>;

const NEXT_ON_BOARD = 10;

/** A call event as read, before "live" is judged against the clock. */
export interface RecentCall {
  seq: number;
  number: string;
  counter_name: string;
  at: Date;
  /** A call out of turn with a reason on the record (decision 139), or a recall of one. */
  out_of_order: boolean;
  /** The visit is still 'called' at this call's counter and this is its latest call. */
  held: boolean;
}

/**
 * The latest calls of the organization's day, newest first: every event that put a visit in
 * 'called' (a call or a recall), by event id — two calls committed in the same second keep
 * their order. Candidates: the visits counters hold now (a recall is always one of them) and
 * the visits called last today (they may be done already); the events of these few visits
 * come by their index.
 */
export async function loadRecentCalls(db: Db, day: QueueDay): Promise<RecentCall[]> {
  const latest = db
    .selectFrom('visits')
    .select('id')
    .where('organization_id', '=', day.organization.id)
    .where('visit_date', '=', day.date)
    .where('called_at', 'is not', null)
    .orderBy('called_at', 'desc')
    .limit(BOARD_RECENT_CALLS);
  const held = day.held.map((v) => v.id);
  const rows = await db
    .selectFrom('visit_events as e')
    .innerJoin('visits as v', 'v.id', 'e.visit_id')
    .leftJoin('counters as c', (join) =>
      join.on('c.id', '=', sql<string>`coalesce(e.counter_id, v.counter_id)`),
    )
    .select([
      'e.id',
      'e.at',
      'e.kind',
      'e.visit_id',
      'e.reason',
      'v.call_reason',
      'v.letter',
      'v.number',
      'v.state',
      'v.counter_id as visit_counter_id',
      sql<string | null>`coalesce(e.counter_id, v.counter_id)`.as('call_counter_id'),
      sql<string | null>`c.name`.as('counter_name'),
    ])
    .where((eb) =>
      held.length > 0
        ? eb.or([eb('e.visit_id', 'in', held), eb('e.visit_id', 'in', latest)])
        : eb('e.visit_id', 'in', latest),
    )
    // Calls and recalls, and the calls Undo took back (an undo of a no-show or a transfer
    // also leads to 'called', but it is no new call: the board must not ring for it).
    .where('e.kind', 'in', ['called', 'recalled', 'undone_called'])
    .orderBy('e.id', 'desc')
    .limit(BOARD_RECENT_CALLS * 2)
    .execute();
  // Newest first: an 'undone_called' cancels the call just before it on the same visit.
  const cancelled = new Set<string>();
  const calls = rows.filter((row) => {
    if (row.kind === 'undone_called') {
      cancelled.add(row.visit_id);
      return false;
    }
    if (row.kind === 'called' && cancelled.delete(row.visit_id)) return false;
    return true;
  });
  const seen = new Set<string>();
  return calls.slice(0, BOARD_RECENT_CALLS).map((row) => {
    // Newest first: only a visit's latest call can be the one it answers now.
    const latestOfVisit = !seen.has(row.visit_id);
    seen.add(row.visit_id);
    return {
      seq: Number(row.id),
      number: visitNumber(row),
      counter_name: row.counter_name ?? '',
      at: row.at,
      // A call out of turn (decision 139), and a recall of one.
      out_of_order: row.reason !== null || (row.kind === 'recalled' && row.call_reason !== null),
      held:
        latestOfVisit &&
        row.state === 'called' &&
        row.visit_counter_id !== null &&
        row.visit_counter_id === row.call_counter_id,
    };
  });
}

/** An organization's day with its latest calls, as the live layer shows them. */
export interface LiveDay extends QueueDay {
  calls: RecentCall[];
}

/**
 * The day and its calls read in one snapshot (repeatable read): read apart, a call
 * committed between the two reads reached the board as "last call" while its counter still
 * showed nobody (seen once under CI's load).
 */
export function loadLiveDay(db: Db, organizationId: string, now: Date): Promise<LiveDay> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const day = await loadQueueDay(trx, organizationId, now);
      return { ...day, calls: await loadRecentCalls(trx, day) };
    });
}

/**
 * The board's calls at `now`: live while held and under BOARD_CALL_LIVE_SECONDS old (a board
 * switched on later shows no call that is over or stale).
 */
export function boardCalls(calls: readonly RecentCall[], now: Date): BoardCall[] {
  const since = now.getTime() - BOARD_CALL_LIVE_SECONDS * 1000;
  return calls.map((c) => ({
    number: c.number,
    counter_name: c.counter_name,
    at: c.at.toISOString(),
    seq: c.seq,
    out_of_order: c.out_of_order,
    live: c.held && c.at.getTime() > since,
  }));
}

/**
 * Now serving per counter (open ones, paused ones — they read "Paused" — and any counter
 * still holding someone), who is next, and the latest calls.
 */
export function boardView(day: LiveDay, now: Date): BoardView {
  const held = new Map(day.held.map((v) => [v.id, v]));
  const calls = boardCalls(day.calls, now);
  const newest = calls[0];
  return {
    organization_name: day.organization.name,
    serving: day.counters
      .filter((c) => c.state === 'open' || c.state === 'paused' || c.current_visit_id !== null)
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
          paused: !visit && c.state === 'paused',
        };
      }),
    next: day.waiting.slice(0, NEXT_ON_BOARD).map(visitNumber),
    last_call: newest
      ? { number: newest.number, counter_name: newest.counter_name, at: newest.at, seq: newest.seq }
      : null,
    calls,
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
  return boardSnapshot(boardView(day, now), now);
}
