import type { Counter, CounterActionResponse, QueueVisit, VisitState } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.js';
import { notifyQueueChanged } from '../../src/modules/queue/queue-events.js';

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
 * The queue's rows written straight into the database as the counter's routes would, each
 * change in one transaction with its notification: the live layer's tests exercise the
 * read side (hub, board, turn) whatever wrote the change. Its numbers (letter A, 1, 2, …)
 * bypass visit_numbers: do not mix it with the routes' walk-ins in one organization.
 */
export function queueWriter(db: Kysely<DB>, organizationId: string, date: string, letter = 'A') {
  let number = 0;
  return {
    async counter(name: string, serviceIds: string[], state: 'open' | 'closed' = 'open') {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('counters')
          .values({ organization_id: organizationId, name, state })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('counter_services')
          .values(serviceIds.map((service_id) => ({ counter_id: row.id, service_id })))
          .execute();
        await notifyQueueChanged(trx, organizationId);
        return row.id;
      });
    },

    /** A waiting visit that arrived at `at`. */
    async visit(
      serviceId: string,
      at: Date,
      extra: { name?: string; phone?: string | null; bookingId?: string; slotStart?: Date } = {},
    ) {
      number += 1;
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('visits')
          .values({
            organization_id: organizationId,
            service_id: serviceId,
            visit_date: date,
            letter,
            number,
            source: extra.bookingId ? 'booking' : 'staff',
            booking_id: extra.bookingId ?? null,
            customer_name: extra.name ?? `Visitor ${number}`,
            phone: extra.phone ?? null,
            slot_start: extra.slotStart ?? null,
            arrived_at: at,
            queued_at: at,
          })
          .returning(['id', 'number'])
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('visit_events')
          .values({
            visit_id: row.id,
            organization_id: organizationId,
            kind: 'joined',
            from_state: null,
            to_state: 'waiting',
            at,
          })
          .execute();
        await notifyQueueChanged(trx, organizationId);
        return row;
      });
    },

    /** Moves a visit to `to` (called: at `counterId`), with its event; a call again is a recall. */
    async move(
      visitId: string,
      to: VisitState,
      at: Date,
      counterId: string | null = null,
      options: { notify?: boolean } = {},
    ) {
      await db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('visits')
          .select(['state', 'counter_id', 'recalls'])
          .where('id', '=', visitId)
          .executeTakeFirstOrThrow();
        const recall = before.state === 'called' && to === 'called';
        const counter = counterId ?? before.counter_id;
        await trx
          .updateTable('visits')
          .set({
            state: to,
            counter_id: to === 'called' || to === 'serving' ? counter : null,
            ...(to === 'called' ? { called_at: at } : {}),
            ...(recall ? { recalls: before.recalls + 1 } : {}),
            ...(to === 'serving' ? { serving_at: at } : {}),
            ...(['done', 'no_show', 'left'].includes(to) ? { ended_at: at } : {}),
            updated_at: at,
          })
          .where('id', '=', visitId)
          .execute();
        await trx
          .insertInto('visit_events')
          .values({
            visit_id: visitId,
            organization_id: organizationId,
            kind: recall ? 'recalled' : to,
            from_state: before.state,
            to_state: to,
            counter_id: counter,
            at,
          })
          .execute();
        if (options.notify !== false) await notifyQueueChanged(trx, organizationId);
      });
    },
  };
}

/** A socket's messages as they arrive, with a way to wait for the next one that matches. */
export function messageLog(ws: import('ws').WebSocket) {
  const messages: { text: string; json: Record<string, unknown> }[] = [];
  const waiters: { test: (m: Record<string, unknown>) => boolean; done: () => void }[] = [];
  ws.on('message', (data) => {
    const text = String(data);
    const json = JSON.parse(text) as Record<string, unknown>;
    messages.push({ text, json });
    for (const w of [...waiters]) {
      if (w.test(json)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.done();
      }
    }
  });
  return {
    messages,
    /** Resolves with the first message (already received or to come) after `from` that matches. */
    next(test: (m: Record<string, unknown>) => boolean, from = 0, timeoutMs = 5_000) {
      return new Promise<Record<string, unknown>>((resolve, reject) => {
        const seen = messages.slice(from).find((m) => test(m.json));
        if (seen) return resolve(seen.json);
        const timer = setTimeout(
          () =>
            reject(
              new Error(`no matching message; got ${JSON.stringify(messages.map((m) => m.json))}`),
            ),
          timeoutMs,
        );
        waiters.push({
          test,
          done: () => {
            clearTimeout(timer);
            const last = messages.at(-1);
            resolve(last ? last.json : {});
          },
        });
      });
    },
  };
}
