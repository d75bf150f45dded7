/**
 * How often a visitor's page is told their turn (decision 126): every change at once near the
 * head of the line, a new place at most every few seconds further back.
 */
import type { VisitTurn } from '@qless/contract';

/** Visitors this close to the head of their line are told every change at once. */
export const IMMEDIATE_PLACES = 10;
/** Visitors further back are told their new place at most this often (ms). */
export const FAR_TURN_EVERY_MS = 3_000;

/** When a turn message last left a group of sockets, and what in it decides urgency. */
export interface SentTurn {
  at: number;
  state: VisitTurn['state'];
  position: number | null;
  open: boolean;
}

/**
 * Whether a turn's change goes out at once: anything but a far-back visitor's new place or
 * estimate (a call, a state change, the first places in line, counters opening or closing).
 * Twenty counters calling each second move every place in line several times a second;
 * the 300th in line is told at most every FAR_TURN_EVERY_MS, which divides the messages of
 * a long line several times over (decision 126).
 */
export function urgent(turn: VisitTurn, sent: SentTurn | null): boolean {
  if (!sent || turn.state !== 'waiting' || sent.state !== 'waiting') return true;
  if (turn.counters_open !== sent.open) return true;
  return turn.position === null || sent.position === null || turn.position <= IMMEDIATE_PLACES;
}
