import type { VisitTurn } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { IMMEDIATE_PLACES, type SentTurn, urgent } from './turn-pace.js';

const turn = (over: Partial<VisitTurn>): VisitTurn =>
  ({ state: 'waiting', position: 40, counters_open: true, ...over }) as VisitTurn;
const sent = (over: Partial<SentTurn>): SentTurn => ({
  at: 0,
  state: 'waiting',
  position: 41,
  open: true,
  ...over,
});

describe('which turn changes are told at once', () => {
  it('a far-back visitor moving up one place waits; everything else goes at once', () => {
    expect(urgent(turn({}), sent({}))).toBe(false);
    // The first message of a socket, a call, a state change, a place near the head.
    expect(urgent(turn({}), null)).toBe(true);
    expect(urgent(turn({ state: 'called', position: null }), sent({}))).toBe(true);
    expect(urgent(turn({ state: 'left', position: null }), sent({}))).toBe(true);
    expect(urgent(turn({}), sent({ state: 'called' }))).toBe(true);
    expect(urgent(turn({ position: IMMEDIATE_PLACES }), sent({}))).toBe(true);
    expect(urgent(turn({ position: IMMEDIATE_PLACES + 1 }), sent({}))).toBe(false);
    // Counters opening or closing change what the page says (an estimate or none).
    expect(urgent(turn({ counters_open: false }), sent({}))).toBe(true);
    expect(urgent(turn({ position: null }), sent({}))).toBe(true);
  });
});
