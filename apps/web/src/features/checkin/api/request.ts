import type { ErrorCode } from '@qless/contract';

/**
 * The check-in calls keep the whole answer of a refusal (its reason, the ticket's date,
 * when it was checked in), which the shared client reduces to a code; and they tell a
 * network failure (offline: queue it) from an answer.
 */
export type Answer<T> =
  | { kind: 'ok'; status: number; body: T }
  | { kind: 'refused'; status: number; code: ErrorCode | null; body: unknown }
  | { kind: 'offline' };

export async function request<T>(
  path: string,
  options: { method?: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal } = {},
): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers:
        options.body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
      cache: 'no-store',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    return { kind: 'offline' };
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (response.ok) return { kind: 'ok', status: response.status, body: body as T };
  const code =
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { code?: unknown }).code === 'string'
      ? (body as { code: ErrorCode }).code
      : null;
  return { kind: 'refused', status: response.status, code, body };
}
