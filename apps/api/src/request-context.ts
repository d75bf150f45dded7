import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The request a piece of work belongs to, carried through everything it awaits and every
 * timer it sets (AsyncLocalStorage): a row it writes for background work (an outbox message,
 * a payment) stores the id, so the worker that later sends or checks it logs the same id.
 */
const context = new AsyncLocalStorage<string | null>();

/** What an incoming `X-Request-Id` must look like to be kept (nginx's `$request_id` does). */
const ACCEPTED = /^[A-Za-z0-9._-]{8,64}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

/** The caller's id when it is one we accept, else a new one. */
export function acceptRequestId(header: string | string[] | undefined): string {
  return typeof header === 'string' && ACCEPTED.test(header) ? header : randomUUID();
}

/** The id of the request this code runs for, or null (a sweep started by no request). */
export function currentRequestId(): string | null {
  return context.getStore() ?? null;
}

/** Runs `work` as part of request `id` (null: of none). */
export function withRequestId<T>(id: string | null, work: () => T): T {
  return context.run(id, work);
}
