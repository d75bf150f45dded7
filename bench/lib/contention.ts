/**
 * The contention figure (issue 11): 200 simultaneous initiations on a slot-date with one seat
 * left, sent by their own process, against a bare route answering the same 409 bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { API, getJson, mean, type TakenJson } from './api-json.js';
import type { Figure } from './figures.js';
import {
  type Engine,
  ROOT,
  type RunningServer,
  runNode,
  type Store,
  startBare,
} from './processes.js';
import type { Catalogue } from './server-figures.js';

const BURST = 200;
const BURST_TARGET = 5;

function initiation(
  engine: Engine,
  serviceId: string,
  slotId: string,
  date: string,
  i: number,
  tag: string,
) {
  return JSON.stringify({
    cus_name: 'Bench Customer',
    cus_email: 'bench@example.com',
    // Distinct numbers: one number has one pending payment, a second start replaces the first.
    phone_number: `677${String(i).padStart(6, '0')}`,
    amount: 2,
    currency: 'XAF',
    reference: `bench-${engine}-${tag}-${i}`,
    service_id: serviceId,
    slot_id: slotId,
    date,
  });
}

async function initiate(
  base: string,
  body: string,
): Promise<{ status: number; body: Buffer; type: string }> {
  const res = await fetch(`${base}${API}/payment/initiate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return {
    status: res.status,
    body: Buffer.from(await res.arrayBuffer()),
    type: res.headers.get('content-type') ?? 'application/json',
  };
}

async function burst(
  url: string,
  bodies: string[],
): Promise<{ elapsedMs: number; statuses: number[]; errors: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'qless-burst-'));
  try {
    const file = path.join(dir, 'burst.json');
    writeFileSync(file, JSON.stringify({ url, method: 'POST', bodies }));
    const out = await runNode('burst client', path.join(ROOT, 'bench/lib/burst-worker.ts'), [file]);
    return JSON.parse(out.trim().split('\n').pop() ?? '{}');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * 200 simultaneous initiations on one slot-date with one seat left (the others held
 * first), from their own process: exactly one hold, 199 × 409, and the time until the last
 * answer against 200 simultaneous requests to a bare route answering the same 409 bytes.
 */
export async function contention(
  engine: Engine,
  store: Store,
  api: RunningServer,
  c: Catalogue['contention'],
): Promise<Figure[]> {
  const [slot, fullSlot] = c.slotIds;
  if (!slot || !fullSlot) throw new Error('two slots needed');
  let n = 0;
  const next = () => {
    n += 1;
    return n;
  };
  // Hold every seat but one on the slot, and every seat on another to learn the 409's bytes.
  for (let i = 0; i < c.capacity - 1; i += 1) {
    const r = await initiate(
      api.base,
      initiation(engine, c.serviceId, slot, c.date, next(), 'pre'),
    );
    if (r.status !== 201)
      throw new Error(`pre-hold #${i + 1} of ${c.capacity} answered ${r.status}: ${r.body}`);
  }
  let conflict: { status: number; body: Buffer; type: string } | null = null;
  for (let i = 0; i <= c.capacity; i += 1) {
    const r = await initiate(
      api.base,
      initiation(engine, c.serviceId, fullSlot, c.date, next(), 'fill'),
    );
    if (i < c.capacity && r.status !== 201)
      throw new Error(`fill #${i + 1} of ${c.capacity} answered ${r.status}: ${r.body}`);
    if (i === c.capacity) conflict = r;
  }
  if (conflict?.status !== 409)
    throw new Error(`a full slot answered ${conflict?.status}: ${conflict?.body}`);

  const bodies = Array.from({ length: BURST }, () =>
    initiation(engine, c.serviceId, slot, c.date, next(), 'burst'),
  );
  const bare = await startBare([
    {
      method: 'POST',
      path: `${API}/payment/initiate`,
      status: 409,
      contentType: conflict.type,
      body: conflict.body.toString('base64'),
    },
  ]);
  let bareMs: number[] = [];
  let real: Awaited<ReturnType<typeof burst>>;
  try {
    // A first burst on each opens nothing but connections and warms the JIT; not counted.
    await burst(`${bare.base}${API}/payment/initiate`, bodies);
    bareMs.push((await burst(`${bare.base}${API}/payment/initiate`, bodies)).elapsedMs);
    real = await burst(`${api.base}${API}/payment/initiate`, bodies);
    bareMs.push((await burst(`${bare.base}${API}/payment/initiate`, bodies)).elapsedMs);
  } finally {
    await bare.stop();
  }
  bareMs = bareMs.filter(Number.isFinite);
  const won = real.statuses.filter((s) => s === 201).length;
  const lost = real.statuses.filter((s) => s === 409).length;
  const other = real.statuses.filter((s) => s !== 201 && s !== 409);

  // The seats of the slot-date, as the API reports them and, on PostgreSQL, as stored.
  const taken = await getJson<TakenJson>(
    `${api.base}${API}/service/${c.serviceId}/bookings?start=${c.date}&end=${c.date}`,
  );
  const apiTaken = taken.seats_taken.find((s) => s.slot_id === slot)?.taken ?? 0;
  let stored: number | null = null;
  if (store.url) {
    const client = new pg.Client({ connectionString: store.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from bookings where slot_id = $1 and booking_date = $2
           and status in ('held', 'confirmed', 'checked_in')`,
        [slot, c.date],
      );
      stored = rows[0]?.n ?? null;
    } finally {
      await client.end();
    }
  }
  const bareMean = mean(bareMs);
  const ratio = real.elapsedMs / bareMean;
  const outcome = `${won} x 201, ${lost} x 409${other.length ? `, others: ${other.join(',')}` : ''}`;
  return [
    {
      name: `contention: ${BURST} initiations, one seat left`,
      engine,
      value: real.elapsedMs,
      unit: 'ms',
      baseline: bareMean,
      ratio,
      target: `1 x 201, ${BURST - 1} x 409, <= ${BURST_TARGET} x bare`,
      met: won === 1 && lost === BURST - 1 && ratio <= BURST_TARGET,
      detail: `${outcome}; capacity ${c.capacity}, ${c.capacity - 1} seat(s) held before; bare bursts ${bareMs.map((m) => m.toFixed(0)).join(' / ')} ms${real.errors.length ? `; client errors: ${real.errors.join('; ')}` : ''}`,
    },
    {
      name: 'contention: seats taken after',
      engine,
      value: apiTaken,
      unit: 'seats',
      target: `= capacity (${c.capacity})`,
      met: apiTaken === c.capacity && (stored === null || stored === c.capacity),
      detail: `taken-slots API says ${apiTaken}${stored === null ? '' : `, the database holds ${stored} active booking(s)`} on ${c.date}`,
    },
  ];
}
