/**
 * Navigation state (spec: objects travel between pages in history state). It is only a
 * head start: every page also loads what it needs when the state is missing (deep link,
 * refresh, new tab).
 */
export function readHistoryState<T>(guard: (value: unknown) => value is T): T | null {
  const state: unknown = typeof history === 'undefined' ? null : history.state;
  return guard(state) ? state : null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
