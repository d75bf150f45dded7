import type { BoardCall, BoardSnapshot } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import {
  bannerCall,
  callsOf,
  clockOffset,
  newestSeq,
  recentCalls,
  unseenCalls,
} from './board-calls';

const at = (s: number) => new Date(Date.UTC(2026, 10, 26, 8, 0, s)).toISOString();
const call = (seq: number, number: string, counter: string, live = true, s = 0): BoardCall => ({
  seq,
  number,
  counter_name: counter,
  at: at(s),
  live,
});

describe('the board’s calls', () => {
  it('two calls of one message are both unseen, oldest first; over or seen ones are not', () => {
    const calls = [
      call(13, 'V-002', 'Guichet 3'),
      call(12, 'C-004', 'Guichet 1'),
      call(11, 'C-003', 'Guichet 2', false),
      call(8, 'C-002', 'Guichet 3'),
    ];
    expect(unseenCalls(calls, 10).map((c) => c.seq)).toEqual([12, 13]);
    expect(unseenCalls(calls, 12).map((c) => c.seq)).toEqual([13]);
    expect(unseenCalls(calls, 13)).toEqual([]);
    expect(newestSeq(calls)).toBe(13);
    expect(newestSeq([])).toBe(-1);
  });

  it('the banner: the call whose turn it is, while live and for 90 s of the server’s clock', () => {
    const calls = [call(12, 'C-004', 'Guichet 1', true, 0), call(11, 'C-003', 'Guichet 2', false)];
    const board = { server_time: at(30) } as BoardSnapshot;
    // This screen's clock is 1 000 s behind the server's.
    const local = Date.parse(at(30)) - 1_000_000;
    const offset = clockOffset(board, local);
    expect(bannerCall(calls, 12, offset, local)?.number).toBe('C-004');
    expect(bannerCall(calls, 12, offset, local + 59_000)?.number).toBe('C-004');
    expect(bannerCall(calls, 12, offset, local + 60_001)).toBeNull();
    // Over (started, moved, closed): gone at once.
    expect(bannerCall(calls, 11, offset, local)).toBeNull();
    expect(bannerCall(calls, null, offset, local)).toBeNull();
  });

  it('the last calls: newest first, a recall listed once', () => {
    const calls = [
      call(15, 'C-004', 'Guichet 1'),
      call(14, 'V-002', 'Guichet 3', false),
      call(12, 'C-004', 'Guichet 1', false),
      call(9, 'C-001', 'Guichet 2', false),
    ];
    expect(recentCalls(calls, 5).map((c) => c.number)).toEqual(['C-004', 'V-002', 'C-001']);
    expect(recentCalls(calls, 2).map((c) => c.seq)).toEqual([15, 14]);
  });

  it('a server of before `calls` (last_call only) is read without announcing its call', () => {
    const old = { last_call: { number: 'A-001', counter_name: 'G1', at: at(0), seq: 4 } };
    const calls = callsOf(old as unknown as BoardSnapshot);
    expect(calls).toEqual([
      { number: 'A-001', counter_name: 'G1', at: at(0), seq: 4, live: false },
    ]);
    expect(unseenCalls(calls, 0)).toEqual([]);
  });
});
