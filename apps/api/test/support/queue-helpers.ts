import type { Counter, CounterActionResponse, QueueVisit } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.js';

type Headers = Record<string, string>;

/** The queue's API as the counter screen and the admin call it (bearer sessions). */
export function queueApi(app: () => FastifyInstance) {
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    headers: Headers | null,
    payload?: unknown,
    remoteAddress?: string,
  ) =>
    app().inject({
      method,
      url: `/api/v1${url}`,
      ...(headers ? { headers } : {}),
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
      ...(remoteAddress ? { remoteAddress } : {}),
    });
  return {
    call,
    async createCounter(headers: Headers, name: string, serviceIds: string[]): Promise<Counter> {
      const res = await call('POST', '/queue/counters', headers, { name, service_ids: serviceIds });
      if (res.statusCode !== 201) throw new Error(`counter ${name}: ${res.statusCode} ${res.body}`);
      return res.json<{ counter: Counter }>().counter;
    },
    /** A counter made and opened. */
    async openCounter(headers: Headers, name: string, serviceIds: string[]): Promise<Counter> {
      const counter = await this.createCounter(headers, name, serviceIds);
      const res = await call('POST', `/queue/counters/${counter.counter_id}/open`, headers);
      if (res.statusCode !== 200) throw new Error(`open ${name}: ${res.statusCode} ${res.body}`);
      return res.json<CounterActionResponse>().counter;
    },
    act(headers: Headers, counterId: string, action: string, payload?: unknown) {
      return call('POST', `/queue/counters/${counterId}/${action}`, headers, payload);
    },
    async walkIn(
      headers: Headers,
      serviceId: string,
      name: string,
      phone?: string,
      locale?: 'en' | 'fr',
    ): Promise<QueueVisit> {
      const res = await call('POST', '/queue/visits', headers, {
        service_id: serviceId,
        name,
        ...(phone ? { phone } : {}),
        ...(locale ? { locale } : {}),
      });
      if (res.statusCode !== 201) throw new Error(`walk-in ${name}: ${res.statusCode} ${res.body}`);
      return res.json<{ visit: QueueVisit }>().visit;
    },
  };
}

/** SMS of the queue in the outbox, oldest first. */
export function queueSms(db: Kysely<DB>, to?: string) {
  let q = db
    .selectFrom('outbox')
    .select(['to_address', 'kind', 'text_body', 'dedupe_key', 'locale'])
    .where('kind', 'in', ['queue_near', 'queue_called'])
    .orderBy('created_at')
    .orderBy('id');
  if (to) q = q.where('to_address', '=', to);
  return q.execute();
}

/**
 * Ends every open visit of an organization and, unless told, closes its counters: a test
 * starts on an empty line (tests of one file share their organization).
 */
export async function emptyQueue(
  db: Kysely<DB>,
  organizationId: string,
  now: Date,
  { closeCounters = true } = {},
): Promise<void> {
  await db
    .updateTable('visits')
    .set({ state: 'left', ended_at: now })
    .where('organization_id', '=', organizationId)
    .where('state', 'in', ['waiting', 'called', 'serving'])
    .execute();
  if (!closeCounters) return;
  await db
    .updateTable('counters')
    .set({ state: 'closed' })
    .where('organization_id', '=', organizationId)
    .execute();
}
