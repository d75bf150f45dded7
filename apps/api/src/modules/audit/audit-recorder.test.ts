import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../db/schema.js';
import { AuditRecorder, type AuditRow } from './audit-recorder.js';

/** A database whose INSERTs succeed or fail as the test says, and which counts them. */
function fakeDb() {
  const state = { down: false, inserts: 0, rows: [] as AuditRow[] };
  const db = {
    insertInto: () => ({
      values: (rows: AuditRow[]) => ({
        execute: async () => {
          if (state.down) throw new Error('connection refused');
          state.inserts += 1;
          state.rows.push(...rows);
        },
      }),
    }),
  } as unknown as Kysely<DB>;
  return { db, state };
}

function fakeLog() {
  const errors: string[] = [];
  const log = { error: (_obj: unknown, message: string) => errors.push(message) };
  return { log: log as unknown as FastifyBaseLogger, errors };
}

const row = (n: number): AuditRow => ({ at: new Date(0), action: `TEST ${n}`, outcome: 200 });

describe('audit recorder', () => {
  it('writes the rows of requests answered together in one INSERT', async () => {
    const { db, state } = fakeDb();
    const recorder = new AuditRecorder(db, fakeLog().log);
    for (let n = 0; n < 5; n++) recorder.record(row(n));
    expect(state.inserts).toBe(0); // after the answers, never during them
    await recorder.flush();
    expect(state.inserts).toBe(1);
    expect(state.rows.map((r) => r.action)).toEqual([0, 1, 2, 3, 4].map((n) => `TEST ${n}`));
    await recorder.close();
  });

  it('logs a failed write, never throws, and writes the rows once the database is back', async () => {
    const { db, state } = fakeDb();
    const { log, errors } = fakeLog();
    const recorder = new AuditRecorder(db, log);
    state.down = true;
    recorder.record(row(1));
    await expect(recorder.flush()).resolves.toBeUndefined();
    expect(errors).toEqual(['audit log: writing entries failed; retrying']);
    state.down = false;
    recorder.record(row(2));
    await recorder.flush();
    expect(state.rows.map((r) => r.action)).toEqual(['TEST 1', 'TEST 2']);
    await recorder.close();
  });

  it('drops a batch the database refuses as data (it would fail again) and goes on', async () => {
    const { db, state } = fakeDb();
    const { log, errors } = fakeLog();
    const recorder = new AuditRecorder(db, log);
    const refusing = db.insertInto as unknown as () => unknown;
    let first = true;
    (db as unknown as { insertInto: () => unknown }).insertInto = () => {
      if (!first) return refusing();
      first = false;
      return {
        values: () => ({
          execute: async () => {
            throw Object.assign(new Error('unsupported Unicode escape sequence'), {
              code: '22P05',
            });
          },
        }),
      };
    };
    recorder.record(row(1));
    await recorder.flush();
    recorder.record(row(2));
    await recorder.flush();
    expect(errors).toEqual(['audit log: entries refused; dropped']);
    expect(state.rows.map((r) => r.action)).toEqual(['TEST 2']);
    await recorder.close();
  });

  it('stops trying at shutdown when the database is gone (no retry loop left behind)', async () => {
    const { db, state } = fakeDb();
    const { log, errors } = fakeLog();
    const recorder = new AuditRecorder(db, log);
    state.down = true;
    recorder.record(row(1));
    await recorder.close();
    expect(errors.at(-1)).toBe('audit log: entries not written at shutdown');
    const after = errors.length;
    // A retry would come a second later.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(errors.length).toBe(after);
  });
});
