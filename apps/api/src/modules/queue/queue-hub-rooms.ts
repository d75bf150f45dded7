/**
 * The queue hub's rooms (queue-hub.ts): who follows an organization's board and visitors'
 * turns in this process, what was last sent to them, and when the room renders next.
 */
import type { ErrorBody, VisitTurn } from '@qless/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/schema.js';
import type { SentTurn } from './turn-pace.js';

/** Where a follower's messages go (a socket, or a test's recorder). */
export interface LiveSink {
  send(text: string): void;
  /** Ends the follow with an error frame (a revoked board). */
  fail(code: number, body: ErrorBody): void;
  /** Ends the follow after its last message (the visit ended). */
  end(): void;
}

export interface BoardFollower {
  boardId: string;
  sink: LiveSink;
  /** The view last sent (a string shared by every board of the room). */
  last: string | null;
}

export interface TurnGroup {
  /** The visit the followers mean now (a transfer moves them to the new visit). */
  currentId: string;
  sinks: Set<LiveSink>;
  /** The message last sent (null: none yet, or a newcomer joined the group). */
  last: string | null;
  /** When the last message left, and what it said that decides the next one's urgency. */
  sent: SentTurn | null;
}

export interface Room {
  organizationId: string;
  boards: Set<BoardFollower>;
  /** Keyed by the visit id the followers asked for. */
  turns: Map<string, TurnGroup>;
  timer: NodeJS.Timeout | null;
  /** When the pending render is due (performance.now()). */
  timerDue: number;
  /** No render before this (performance.now()): the last one's end plus its length. */
  notBefore: number;
  running: boolean;
  dirty: boolean;
  /** A far-back visitor's new place was held back: render again by then (performance.now()). */
  deferredUntil: number | null;
}

export interface QueueHubOptions {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** How long a burst of notifications is gathered before the day is loaded (ms). */
  coalesceMs?: number;
  /**
   * The order moves with the clock alone (a booked visitor's grace window opening), so rooms
   * with followers are re-rendered this often even without a notification (ms).
   */
  refreshMs?: number;
  /**
   * Turn messages rendered between two looks at the process's other work (default 200):
   * answers waiting on the network (a call holding the queue lock) are read in between. With
   * PGlite the database runs in this thread, so a look lets its queued statements run and the
   * render waits seconds: Infinity there.
   */
  turnsPerSlice?: number;
  /** How often a far-back visitor is told a new place at most (ms; FAR_TURN_EVERY_MS). */
  farTurnEveryMs?: number;
  /** After a failed load (database down), the room is tried again after this long (ms). */
  retryMs?: number;
  /**
   * How long a loaded day answers polls (GET /board, GET /visits) while no notification
   * for its organization arrived (ms); the clock alone moves the order, so not for ever.
   */
  dayMaxAgeMs?: number;
}

/** A room nobody follows yet, with no render pending. */
export function newRoom(organizationId: string): Room {
  return {
    organizationId,
    boards: new Set(),
    turns: new Map(),
    timer: null,
    timerDue: 0,
    notBefore: 0,
    running: false,
    dirty: false,
    deferredUntil: null,
  };
}

/** A visit that left the queue for good: its socket has nothing more to say. */
export function isOver(turn: VisitTurn): boolean {
  return turn.state === 'done' || turn.state === 'no_show' || turn.state === 'left';
}
