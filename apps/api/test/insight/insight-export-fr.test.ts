import { beforeAll, describe, expect, it } from 'vitest';
import { TODAY, useCounterApp, YESTERDAY } from '../support/checkin-helpers.js';
import { parseCsv } from '../support/csv.js';
import { queueApi } from '../support/queue-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/**
 * Issue 30 item 11, decision 122: the file a French screen downloads opens in Excel set to
 * French as a table — ";" between fields, French headers and labels, French service names, a
 * decimal comma, accents read (BOM), and a transfer explained; the standard CSV is unchanged.
 */
describe('insight CSV for French Excel', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  const range = `from=${YESTERDAY}&to=${TODAY}`;
  let transferredNumber = '';

  beforeAll(async () => {
    s.clock.set(PINNED_NOW); // 09:30 in Douala
    await s.db
      .updateTable('services')
      .set({ name: 'Account opening', name_fr: 'Ouverture de compte' })
      .where('id', '=', ctx.a.serviceId)
      .execute();
    await s.db
      .updateTable('services')
      .set({ name: 'Cash desk', name_fr: 'Caisse' })
      .where('id', '=', ctx.a.otherServiceId)
      .execute();
    const here = await q.openCounter(ctx.adminA.headers, 'Guichet 1', [ctx.a.serviceId]);
    await q.openCounter(ctx.adminA.headers, 'Guichet 2', [ctx.a.otherServiceId]);
    const served = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Ébodé Jean');
    // A minute apart: the line's order is the arrival's.
    s.clock.advance(MINUTE);
    const moved = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Tchana Marc');
    s.clock.advance(MINUTE);
    const absent = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Ngo Ada');
    transferredNumber = moved.number;
    const act = async (action: string, payload?: unknown) => {
      const res = await q.act(ctx.staffA.headers, here.counter_id, action, payload);
      expect(res.statusCode, res.body).toBe(200);
      return res;
    };
    // Served after a wait of 3.5 min: a figure with a decimal.
    s.clock.advance(90 * SECOND);
    await act('call-next');
    await act('start');
    s.clock.advance(5 * MINUTE);
    await act('done');
    // Sent on to the cash desk: one number, two rows.
    await act('call-next');
    await act('start');
    await act('transfer', { service_id: ctx.a.otherServiceId });
    // Called, never came: absent (set here, whatever the screen's rule for when it may).
    await act('call-next');
    await s.db
      .updateTable('visits')
      .set({ state: 'no_show', ended_at: s.clock.now() })
      .where('id', '=', absent.visit_id)
      .execute();
    expect(served.number).not.toBe(moved.number);
  });

  const download = async (query: string) => {
    const res = await q.call(
      'GET',
      `/organization/insight/export.csv?kind=visits&${range}${query}`,
      ctx.adminA.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('reads back with ";": French headers, names, labels, a decimal comma, the transfer', async () => {
    const res = await download('&format=excel-fr');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="qless-visites-${YESTERDAY}-${TODAY}.csv"`,
    );
    const raw = res.rawPayload.toString('utf8');
    expect(raw.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(raw.slice(1), ';');
    expect(header).toEqual([
      'Date',
      'Agence',
      'Numéro',
      'Service',
      'Origine',
      'État',
      'Transfert',
      'Client',
      'Guichet',
      'Arrivée (Africa/Douala)',
      'Entrée dans la file (Africa/Douala)',
      'Appel (Africa/Douala)',
      'Début du service (Africa/Douala)',
      'Fin (Africa/Douala)',
      'Attente (min)',
      'Durée du service (min)',
      'Rappels',
    ]);
    const col = (name: string) => (header ?? []).indexOf(name);
    const row = (client: string, state?: string) =>
      rows.find(
        (r) => r[col('Client')] === client && (state === undefined || r[col('État')] === state),
      );
    const served = row('Ébodé Jean');
    expect(served?.[col('Service')]).toBe('Ouverture de compte');
    expect(served?.[col('État')]).toBe('Servi');
    expect(served?.[col('Origine')]).toBe('Sans rendez-vous (accueil)');
    expect(served?.[col('Attente (min)')]).toBe('3,5');
    expect(served?.[col('Durée du service (min)')]).toBe('5');
    expect(row('Ngo Ada')?.[col('État')]).toBe('Absent');
    // The transfer: two rows of one number, each saying where the other is.
    const moved = rows.filter((r) => r[col('Numéro')] === transferredNumber);
    // (One arrival: the two rows' order is the file's tie-break, by id.)
    const seen = moved.map((r) => [r[col('Service')], r[col('État')], r[col('Transfert')]]);
    expect(seen).toHaveLength(2);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['Ouverture de compte', 'Transféré', 'Transféré vers Caisse'],
        ['Caisse', 'En attente', 'Transféré depuis Ouverture de compte'],
      ]),
    );
    expect(rows.every((r) => r.length === header?.length)).toBe(true);
    expect(rows.filter((r) => r[col('Transfert')] === '')).toHaveLength(2);
  });

  it('the standard CSV keeps its shape: commas, English headers, machine values, points', async () => {
    const raw = (await download('')).rawPayload.toString('utf8');
    const [header, ...rows] = parseCsv(raw.slice(1));
    expect(header).toEqual([
      'visit_date',
      'branch',
      'number',
      'service',
      'source',
      'state',
      'customer_name',
      'counter',
      'arrived_at (Africa/Douala)',
      'queued_at (Africa/Douala)',
      'called_at (Africa/Douala)',
      'serving_at (Africa/Douala)',
      'ended_at (Africa/Douala)',
      'wait_minutes',
      'service_minutes',
      'recalls',
    ]);
    const col = (name: string) => (header ?? []).indexOf(name);
    const served = rows.find((r) => r[col('customer_name')] === 'Ébodé Jean');
    expect(served?.[col('service')]).toBe('Account opening');
    expect(served?.[col('wait_minutes')]).toBe('3.5');
    expect(rows.map((r) => r[col('state')]).sort()).toEqual([
      'done',
      'no_show',
      'transferred',
      'waiting',
    ]);
    const same = await download('&format=csv');
    expect(same.rawPayload.toString('utf8')).toBe(raw);
  });

  it('bookings in French too, and an unknown format is a 400', async () => {
    await s.book(ctx.a, { status: 'no_show', date: YESTERDAY });
    const res = await q.call(
      'GET',
      `/organization/insight/export.csv?kind=bookings&${range}&format=excel-fr`,
      ctx.adminA.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    const [header, ...rows] = parseCsv(res.rawPayload.toString('utf8').slice(1), ';');
    expect(header?.slice(0, 5)).toEqual([
      'Date',
      'Agence',
      'Heure du créneau (Africa/Douala)',
      'Service',
      'Statut',
    ]);
    expect(rows.map((r) => [r[3], r[4]])).toContainEqual(['Ouverture de compte', 'Absent']);
    const bad = await q.call(
      'GET',
      `/organization/insight/export.csv?kind=visits&${range}&format=xlsx`,
      ctx.adminA.headers,
    );
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'INVALID_QUERY']);
  });
});
