// engines: postgres and pglite — concurrent callbacks on one payment
import { describe, expect, inject, it } from 'vitest';
import { initiateBody } from '../support/fixtures.js';
import { useSimulatorApp } from '../support/simulator-harness.js';

/** A fixed shuffle, so a failure replays (mulberry32). */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * 50 payments on PostgreSQL, where the callbacks of a wave really run at once. PGlite is one
 * session that takes them one after another, so 20 payments there prove what 50 do, at 40 %
 * of the CPU (issue 29).
 */
const PAYMENTS = inject('engine') === 'pglite' ? 20 : 50;
const COPIES = 20;
/** The callback route allows 300 per minute per client; each wave stays under it. */
const WAVE = 250;
const CONCURRENCY = 25;

describe('duplicate callbacks in any order', () => {
  const h = useSimulatorApp();

  it(`${PAYMENTS * COPIES} shuffled callbacks for ${PAYMENTS} payments: one transition each`, async () => {
    const ids: string[] = [];
    const dates = [h.nextDate(), h.nextDate()];
    for (let i = 0; i < PAYMENTS; i++) {
      const res = await h.initiate(
        initiateBody(h.fx, {
          slotIndex: i % 25,
          date: dates[Math.floor(i / 25)],
          // One pending payment per number: each payment has a number of its own.
          phone_number: `6771200${String(i + 10)}`,
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().payment.payment_id as string);
    }

    const deliveries = shuffled(
      ids.flatMap((id) => Array.from({ length: COPIES }, () => id)),
      9,
    );
    const outcomes: Record<string, number> = {};
    for (let w = 0; w < deliveries.length; w += WAVE) {
      h.clock.advance(61_000);
      const wave = deliveries.slice(w, w + WAVE);
      for (let c = 0; c < wave.length; c += CONCURRENCY) {
        const answers = await Promise.all(
          wave.slice(c, c + CONCURRENCY).map((id) => h.callback(id, 'SUCCESSFUL')),
        );
        for (const answer of answers) {
          expect(answer.statusCode, answer.body).toBe(200);
          const { outcome } = answer.json() as { outcome: string };
          outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        }
      }
    }
    expect(outcomes).toEqual({ confirmed: PAYMENTS, duplicate: PAYMENTS * (COPIES - 1) });

    const confirmed = await h.database.db
      .selectFrom('payment_events')
      .select(({ fn }) => ['payment_id', fn.countAll<string>().as('n')])
      .where('outcome', '=', 'confirmed')
      .where('payment_id', 'in', ids)
      .groupBy('payment_id')
      .execute();
    expect(confirmed).toHaveLength(PAYMENTS);
    expect(confirmed.every((row) => Number(row.n) === 1)).toBe(true);
    const statuses = await Promise.all(ids.map((id) => h.status(id)));
    expect(statuses.every((s) => s.status === 'SUCCESSFUL' && s.ticket !== null)).toBe(true);
    expect(new Set(statuses.map((s) => s.ticket?.code)).size).toBe(PAYMENTS);
  }, 180_000);
});
