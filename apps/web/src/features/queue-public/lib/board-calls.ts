import { BOARD_CALL_LIVE_SECONDS, type BoardCall, type BoardSnapshot } from '@qless/contract';

/**
 * The board's calls (decision 119): which calls of a snapshot are new to this
 * screen (each is rung, shown and said once, oldest first), which may stand in the banner,
 * and the list of the last calls.
 */

/** A snapshot's calls; a server of before `calls` sent only `last_call`. */
export function callsOf(board: BoardSnapshot): BoardCall[] {
  if (Array.isArray(board.calls)) return board.calls;
  return board.last_call ? [{ ...board.last_call, live: false }] : [];
}

/** The highest seq of `calls` (-1 when none): what a screen has seen once it read them. */
export function newestSeq(calls: readonly BoardCall[]): number {
  return calls.reduce((max, c) => Math.max(max, c.seq), -1);
}

/**
 * The calls a screen that has seen up to `seen` has still to announce, oldest first: the
 * live ones only (a call that is already over would send someone to a counter that no
 * longer waits for them).
 */
export function unseenCalls(calls: readonly BoardCall[], seen: number): BoardCall[] {
  return calls.filter((c) => c.seq > seen && c.live).sort((a, b) => a.seq - b.seq);
}

/** The server's clock minus this screen's, from a snapshot received at `localNow` (ms). */
export function clockOffset(board: BoardSnapshot, localNow: number): number {
  const server = Date.parse(board.server_time);
  return Number.isNaN(server) ? 0 : server - localNow;
}

/** When (this screen's ms) a call leaves the banner unless it ends sooner. */
export function bannerUntil(call: BoardCall, offsetMs: number): number {
  return Date.parse(call.at) + BOARD_CALL_LIVE_SECONDS * 1000 - offsetMs;
}

/**
 * The call the banner shows at `localNow`: the one whose turn it is (or was last), while the
 * server still says it is live and its time is not up; null otherwise.
 */
export function bannerCall(
  calls: readonly BoardCall[],
  seq: number | null,
  offsetMs: number,
  localNow: number,
): BoardCall | null {
  if (seq === null) return null;
  const call = calls.find((c) => c.seq === seq);
  if (!call?.live) return null;
  return bannerUntil(call, offsetMs) > localNow ? call : null;
}

/** The last calls for the list: newest first, a recall not listed twice, at most `max`. */
export function recentCalls(calls: readonly BoardCall[], max: number): BoardCall[] {
  const seen = new Set<string>();
  const out: BoardCall[] = [];
  for (const call of [...calls].sort((a, b) => b.seq - a.seq)) {
    const key = `${call.number}\u0000${call.counter_name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(call);
    if (out.length === max) break;
  }
  return out;
}
