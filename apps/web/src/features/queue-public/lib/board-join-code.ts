import type { BoardJoinCode } from '@qless/contract';

/** Asked again this long after the code's window ends (the server's window has turned). */
const REFRESH_MARGIN_MS = 500;
/** A code that could not be renewed is hidden this long after its window: soon refused. */
const STALE_AFTER_MS = 60_000;
/** A failed ask is tried again this often. */
export const JOIN_CODE_RETRY_MS = 10_000;

/**
 * Milliseconds until the board asks for the next code: at `changes_at` by the server's
 * clock, just after; at least 1 s (a screen's clock off by a window asks once, not in a loop).
 */
export function joinCodeRefreshIn(changesAt: string, serverNowMs: number): number {
  return Math.max(1_000, Date.parse(changesAt) - serverNowMs + REFRESH_MARGIN_MS);
}

/**
 * The code to show now, or null: none asked, or one that could not be renewed for a minute
 * past its window (the server takes it 2 minutes more at most: better none than a refusal).
 */
export function shownJoinCode(answer: BoardJoinCode | null, serverNowMs: number): string | null {
  if (!answer?.code) return null;
  return serverNowMs < Date.parse(answer.changes_at) + STALE_AFTER_MS ? answer.code : null;
}

/** When a shown code turns stale (for the screen to hide it), in milliseconds from now. */
export function joinCodeStaleIn(answer: BoardJoinCode, serverNowMs: number): number {
  return Math.max(0, Date.parse(answer.changes_at) + STALE_AFTER_MS - serverNowMs);
}
