// engines: postgres and pglite — a large read as one JSON value on PGlite, plain rows on PostgreSQL (decision 129)
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isPGlite, manyRows } from '../../src/db/many-rows.js';
import { VISIT_INSTANTS } from '../../src/modules/queue/queue-day.js';
import { useCounterApp } from '../support/checkin-helpers.js';
import { queueApi } from '../support/queue-helpers.js';

/**
 * Decision 129: the day's visits read as one JSON value on PGlite, as plain rows on
 * PostgreSQL; either way the same rows, with the same types, as a plain read gives.
 */
describe('manyRows: a large read, the same rows on either engine', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);

  it('knows its engine, in a transaction too', async () => {
    const pglite = s.database.engine === 'pglite';
    expect(isPGlite(s.db)).toBe(pglite);
    await s.db.transaction().execute(async (trx) => {
      expect(isPGlite(trx)).toBe(pglite);
    });
  });

  it('gives the rows a plain read gives: every timestamp a Date, to the millisecond', async () => {
    const visit = await q.walkIn(
      ctx.staffA.headers,
      ctx.a.serviceId,
      'Ngozi « é »',
      '+237690009001',
    );
    // Every timestamp column set, with microseconds and an offset the server does not use.
    const at = '2026-03-04 09:15:30.123456+01';
    await s.db
      .updateTable('visits')
      .set(
        Object.fromEntries(
          VISIT_INSTANTS.map((c) => [c, new Date(Date.parse('2026-03-04T08:15:30.123Z'))]),
        ),
      )
      .where('id', '=', visit.visit_id)
      .execute();
    await s.db
      .updateTable('visits')
      .set({ serving_at: at as unknown as Date })
      .where('id', '=', visit.visit_id)
      .execute();
    const query = s.db.selectFrom('visits').selectAll().where('id', '=', visit.visit_id);
    const plain = await query.execute();
    const read = await manyRows(s.db, query, VISIT_INSTANTS);
    expect(read).toEqual(plain);
    const row = read[0];
    expect(row?.serving_at).toEqual(new Date('2026-03-04T08:15:30.123Z'));
    // A timestamp column missing from VISIT_INSTANTS would stay a string on PGlite: the
    // table's own list, so that a column added later (null here) is caught too.
    const columns = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where table_name = 'visits' and table_schema = current_schema()
        and data_type like 'timestamp%'`.execute(s.db);
    expect(columns.rows.map((c) => c.column_name).sort()).toEqual([...VISIT_INSTANTS].sort());
    expect(await manyRows(s.db, query.where('id', '=', ctx.a.orgId), VISIT_INSTANTS)).toEqual([]);
  });
});
