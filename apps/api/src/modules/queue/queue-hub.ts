/**
 * The live layer of the queue: one LISTEN per process on QUEUE_CHANNEL, and per organization
 * the boards and visitors' turns followed from this process. A notification marks the
 * organization; after a short pause that gathers a burst, its day is loaded once and every
 * follower's message rendered from memory, sent only when it changed. No follower costs a
 * query of its own: a board's message is shared by all boards of the organization, a turn's
 * by all sockets following the same visit.
 */
import type { VisitTurn } from '@qless/contract';
import type { VisitRow } from '../../db/schema.js';
import type { Fanout } from '../../fanout.js';
import { QUEUE_CHANNEL } from './queue-events.js';
import {
  type BoardFollower,
  isOver,
  type LiveSink,
  newRoom,
  type QueueHubOptions,
  type Room,
  type TurnGroup,
} from './queue-hub-rooms.js';
import {
  type BoardView,
  boardSnapshot,
  boardView,
  type LiveDay,
  loadLiveDay,
  openIndex,
  resolveClosed,
  visitTurn,
} from './queue-live.js';
import { FAR_TURN_EVERY_MS, urgent } from './turn-pace.js';

export type { LiveSink, QueueHubOptions };

interface CachedDay {
  at: number;
  day: Promise<LiveDay>;
}

/** Days kept for polls at most (organizations); each lives dayMaxAgeMs anyway. */
const MAX_CACHED_DAYS = 500;

/** Close code of a board that was revoked (or never existed) while followed. */
export const CLOSE_NOT_FOUND = 4404;

export class QueueHub {
  private readonly rooms = new Map<string, Room>();
  /** The latest day loaded per organization, dropped by its organization's notification. */
  private readonly days = new Map<string, CachedDay>();
  /** False while the listener is down: a notification may be missed, so nothing is kept. */
  private trusted = false;
  private unlisten: (() => Promise<void>) | null = null;
  private refresh: NodeJS.Timeout | null = null;
  private readonly coalesceMs: number;
  private readonly retryMs: number;
  private readonly turnsPerSlice: number;
  private readonly farTurnEveryMs: number;
  private stopped = false;

  constructor(private readonly options: QueueHubOptions) {
    this.coalesceMs = options.coalesceMs ?? 50;
    this.retryMs = options.retryMs ?? 2_000;
    this.turnsPerSlice = options.turnsPerSlice ?? 200;
    this.farTurnEveryMs = options.farTurnEveryMs ?? FAR_TURN_EVERY_MS;
  }

  /** `fanout`: the database's LISTEN, or Redis (decision 033). */
  async start(fanout: Fanout): Promise<void> {
    this.unlisten = await fanout.listen(
      QUEUE_CHANNEL,
      (organizationId) => {
        // Empty after a reconnect: changes may have been missed, so every room reloads.
        if (organizationId === '') {
          this.days.clear();
          this.trusted = true;
          for (const room of this.rooms.values()) this.touch(room);
        } else {
          this.days.delete(organizationId);
          const room = this.rooms.get(organizationId);
          if (room) this.touch(room);
        }
      },
      () => {
        this.trusted = false;
        this.days.clear();
      },
    );
    this.trusted = true;
    const refreshMs = this.options.refreshMs ?? 30_000;
    this.refresh = setInterval(() => {
      for (const room of this.rooms.values()) this.touch(room);
    }, refreshMs);
    this.refresh.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.refresh) clearInterval(this.refresh);
    await this.unlisten?.();
    this.unlisten = null;
    for (const room of this.rooms.values()) if (room.timer) clearTimeout(room.timer);
    this.rooms.clear();
    this.days.clear();
  }

  /**
   * The organization's day now: loaded once per notification and shared by the renders and
   * by every poll meanwhile (2,000 phones polling cost one load, not 2,000). A load that a
   * notification overtakes is used by those who asked before it, never kept.
   */
  dayOf(organizationId: string): Promise<LiveDay> {
    const { db, clock } = this.options;
    const now = clock.now();
    const at = now.getTime();
    const maxAge = this.options.dayMaxAgeMs ?? 5_000;
    const cached = this.days.get(organizationId);
    if (cached && at - cached.at >= 0 && at - cached.at < maxAge) return cached.day;
    const day = loadLiveDay(db, organizationId, now);
    if (!this.trusted || this.stopped) return day;
    const entry: CachedDay = { at, day };
    this.days.delete(organizationId);
    this.days.set(organizationId, entry);
    day.catch(() => {
      if (this.days.get(organizationId) === entry) this.days.delete(organizationId);
    });
    // Oldest first in insertion order: drop the expired and any beyond the bound.
    for (const [id, old] of this.days) {
      if (this.days.size <= MAX_CACHED_DAYS && at - old.at < maxAge) break;
      this.days.delete(id);
    }
    return day;
  }

  /** How many boards and turn sockets this process follows (the bench reads it). */
  stats(): { rooms: number; boards: number; turns: number; visits: number } {
    let boards = 0;
    let turns = 0;
    let visits = 0;
    for (const room of this.rooms.values()) {
      boards += room.boards.size;
      visits += room.turns.size;
      for (const group of room.turns.values()) turns += group.sinks.size;
    }
    return { rooms: this.rooms.size, boards, turns, visits };
  }

  /** Follows an organization's board; the first message comes with the next render. */
  followBoard(organizationId: string, boardId: string, sink: LiveSink): () => void {
    const room = this.roomOf(organizationId);
    const follower: BoardFollower = { boardId, sink, last: null };
    room.boards.add(follower);
    this.touch(room);
    return () => {
      room.boards.delete(follower);
      this.release(room);
    };
  }

  /** Follows one visit's turn; the first message comes with the next render. */
  followTurn(organizationId: string, visitId: string, sink: LiveSink): () => void {
    const room = this.roomOf(organizationId);
    let group = room.turns.get(visitId);
    if (!group) {
      group = { currentId: visitId, sinks: new Set(), last: null, sent: null };
      room.turns.set(visitId, group);
    }
    group.sinks.add(sink);
    // A newcomer needs the message even when the group's did not change.
    group.last = null;
    group.sent = null;
    this.touch(room);
    const joined = group;
    return () => {
      joined.sinks.delete(sink);
      if (joined.sinks.size === 0 && room.turns.get(visitId) === joined) room.turns.delete(visitId);
      this.release(room);
    };
  }

  private roomOf(organizationId: string): Room {
    let room = this.rooms.get(organizationId);
    if (!room) {
      room = newRoom(organizationId);
      this.rooms.set(organizationId, room);
    }
    return room;
  }

  private release(room: Room): void {
    if (room.boards.size > 0 || room.turns.size > 0) return;
    if (room.timer) clearTimeout(room.timer);
    room.timer = null;
    if (this.rooms.get(room.organizationId) === room) this.rooms.delete(room.organizationId);
  }

  /**
   * Renders the room in `delayMs` (and not before `notBefore`). A render already due sooner
   * stands; one due later is brought forward: a far-back visitor's held-back place (due up
   * to FAR_TURN_EVERY_MS away) must not hold back the call that lands meanwhile — it did,
   * and the board showed calls up to three seconds late under the queue bench.
   */
  private touch(room: Room, delayMs = this.coalesceMs): void {
    // A room released (nobody follows it) keeps no timer: stop() would not see it.
    if (this.stopped || this.rooms.get(room.organizationId) !== room) return;
    if (room.running) {
      room.dirty = true;
      return;
    }
    const at = performance.now();
    const due = Math.max(at + delayMs, room.notBefore);
    if (room.timer) {
      if (room.timerDue <= due) return;
      clearTimeout(room.timer);
    }
    room.timerDue = due;
    room.timer = setTimeout(() => {
      room.timer = null;
      void this.render(room);
    }, due - at);
  }

  private async render(room: Room): Promise<void> {
    if (this.rooms.get(room.organizationId) !== room) return;
    room.running = true;
    room.dirty = false;
    room.deferredUntil = null;
    const started = performance.now();
    let failed = false;
    try {
      const now = this.options.clock.now();
      const day = await this.dayOf(room.organizationId);
      if (room.boards.size > 0) await this.renderBoards(room, day, now);
      if (room.turns.size > 0) await this.renderTurns(room, day);
    } catch (err) {
      failed = true;
      this.options.log.error({ err, organizationId: room.organizationId }, 'queue render failed');
    } finally {
      room.running = false;
    }
    // A busy line (20 counters calling each second, thousands following) would otherwise
    // render back to back and starve the requests that change it: the next render waits
    // at least as long as this one took, so renders take at most about half of this process.
    // After a failure (the database down), not again before the retry time, whatever
    // notifications arrive meanwhile.
    const ended = performance.now();
    room.notBefore = ended + (failed ? this.retryMs : ended - started);
    if (failed) this.touch(room, this.retryMs);
    else if (room.dirty) this.touch(room);
    else if (room.deferredUntil !== null) {
      this.touch(room, Math.max(this.coalesceMs, room.deferredUntil - performance.now()));
    }
  }

  private async renderBoards(room: Room, day: LiveDay, now: Date): Promise<void> {
    const active = await this.options.db
      .selectFrom('boards')
      .select('id')
      .where('organization_id', '=', room.organizationId)
      .where('revoked_at', 'is', null)
      .execute();
    const live = new Set(active.map((b) => b.id));
    const view: BoardView = boardView(day, now);
    const key = JSON.stringify(view);
    let text: string | null = null;
    for (const follower of [...room.boards]) {
      if (!live.has(follower.boardId)) {
        room.boards.delete(follower);
        follower.sink.fail(CLOSE_NOT_FOUND, {
          code: 'BOARD_NOT_FOUND',
          message: 'This board link was revoked.',
        });
        continue;
      }
      if (follower.last === key) continue;
      text ??= JSON.stringify(boardSnapshot(view, now));
      follower.last = key;
      follower.sink.send(text);
    }
  }

  private async renderTurns(room: Room, day: LiveDay): Promise<void> {
    const open = openIndex(day);
    const resolved = new Map<TurnGroup, VisitRow>();
    const closed: [string, TurnGroup][] = [];
    for (const [followedId, group] of room.turns) {
      const visit = open.byId.get(group.currentId) ?? open.successorOf.get(group.currentId);
      if (visit) resolved.set(group, visit);
      else closed.push([followedId, group]);
    }
    if (closed.length > 0) {
      // The visit last shown, or — when it is gone (a transfer taken back by Undo removes the
      // visit it made) — the one the visitor follows, from the start of its chain again.
      const rows = await resolveClosed(this.options.db, [
        ...new Set(closed.flatMap(([followedId, g]) => [g.currentId, followedId])),
      ]);
      for (const [followedId, group] of closed) {
        const visit =
          rows.get(group.currentId) ??
          open.byId.get(followedId) ??
          open.successorOf.get(followedId) ??
          rows.get(followedId);
        if (visit) resolved.set(group, visit);
      }
    }
    let rendered = 0;
    for (const [followedId, group] of room.turns) {
      // Thousands of followers: the answers waiting on this process (a clerk's call holding
      // the queue lock) are read between slices, not after the whole room.
      if (++rendered % this.turnsPerSlice === 0) await new Promise((r) => setImmediate(r));
      const visit = resolved.get(group);
      if (!visit) continue;
      group.currentId = visit.id;
      const turn: VisitTurn = visitTurn(day, visit, followedId);
      const text = JSON.stringify(turn);
      if (text !== group.last) {
        const at = performance.now();
        const due = group.sent ? group.sent.at + this.farTurnEveryMs : at;
        if (urgent(turn, group.sent) || at >= due) {
          group.last = text;
          group.sent = {
            at,
            state: turn.state,
            position: turn.position,
            open: turn.counters_open,
          };
          for (const sink of group.sinks) sink.send(text);
        } else {
          room.deferredUntil = Math.min(room.deferredUntil ?? due, due);
        }
      }
      if (isOver(turn)) {
        room.turns.delete(followedId);
        for (const sink of group.sinks) sink.end();
      }
    }
    this.release(room);
  }
}
