import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addDays, DEFAULT_ORGANIZATIONS_PAGE_SIZE, dayOfWeek, weekStart } from '@qless/contract';
import pg from 'pg';
import { type Figure, failedFigure } from './figures.js';
import { type LoadOptions, type LoadResult, load, loadOptions } from './load.js';
import {
  type BareRoute,
  createStore,
  type Engine,
  ROOT,
  type RunningServer,
  runNode,
  type Store,
  startApi,
  startBare,
} from './processes.js';

const API = '/api/v1';
const P99_TARGET_MS = 50;
const RATIO_TARGET = 0.5;
const GROWTH_TARGET = 1.5;
const BURST = 200;
const BURST_TARGET = 5;

export type Group = 'reads' | 'growth' | 'contention';

export interface EngineOptions {
  quick: boolean;
  groups: Set<Group>;
  /** Where explain-<factor>x.txt goes. */
  resultsDir: string;
}

interface Read {
  name: string;
  path: string;
}

interface Catalogue {
  orgEmail: string;
  serviceName: string;
  reads: Read[];
  serviceId: string;
  /** The service for the contention: the organization's one with the most seats. */
  contention: {
    serviceId: string;
    capacity: number;
    slotIds: string[];
    date: string;
    spare: string;
  };
}

interface OrgJson {
  organization_id: string;
  email: string;
}
interface ServiceJson {
  service_id: string;
  service_name: string;
  capacity: number;
}
interface SlotsJson {
  slots: { id: string }[];
  open_days: number[];
  closures: string[];
  today: string;
}
interface TakenJson {
  seats_taken: { booking_date: string; slot_id: string; taken: number }[];
  bookings: { booking_date: string; slot_id: string }[];
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** A demo organization (copies made by the growth generator have e-mails "g<n>.…"). */
function isDemo(org: OrgJson): boolean {
  return !/^g\d+\./.test(org.email);
}

/**
 * The reads of one demo organization and service, found through the API. With `pick`, the
 * same organization (by e-mail) and service (by name) as at 1×: ids differ between stores.
 */
async function discover(
  base: string,
  pick?: { orgEmail: string; serviceName: string },
): Promise<Catalogue> {
  const { organizations } = await getJson<{ organizations: OrgJson[] }>(
    `${base}${API}/organizations`,
  );
  const org = pick
    ? organizations.find((o) => o.email === pick.orgEmail)
    : organizations.find(isDemo);
  if (!org) throw new Error('no demo organization in /organizations');
  const { services } = await getJson<{ services: ServiceJson[] }>(
    `${base}${API}/organizations/${org.organization_id}/services`,
  );
  const service = pick ? services.find((s) => s.service_name === pick.serviceName) : services[0];
  if (!service) throw new Error(`organization ${org.email} has no service`);
  const slots = await getJson<SlotsJson>(`${base}${API}/service/${service.service_id}/slots`);
  // The week the slot view opens on: the service's current week (Sunday to Saturday).
  const start = weekStart(slots.today);
  const end = addDays(start, 6);

  const roomy = [...services].sort((a, b) => b.capacity - a.capacity)[0] ?? service;
  const roomySlots = await getJson<SlotsJson>(`${base}${API}/service/${roomy.service_id}/slots`);
  // A day ahead on which the organization is open: every seat there is free.
  let date = '';
  if (!roomySlots.today) throw new Error('the slots answer has no today');
  for (let d = 2; d < 30 && !date; d += 1) {
    const candidate = addDays(roomySlots.today, d);
    if (
      roomySlots.open_days.includes(dayOfWeek(candidate)) &&
      !roomySlots.closures.includes(candidate)
    ) {
      date = candidate;
    }
  }
  // Slots with every seat free that day (the demo fills some of the current week's).
  const taken = await getJson<TakenJson>(
    `${base}${API}/service/${roomy.service_id}/bookings?start=${date}&end=${date}`,
  );
  const busy = new Set(taken.seats_taken.map((s) => s.slot_id));
  const slotIds = roomySlots.slots.map((s) => s.id).filter((id) => !busy.has(id));
  if (!date || slotIds.length < 2) throw new Error('no open day with two slots for the contention');
  return {
    orgEmail: org.email,
    serviceName: service.service_name,
    serviceId: service.service_id,
    reads: [
      { name: 'week read: slots', path: `${API}/service/${service.service_id}/slots` },
      {
        name: 'week read: bookings',
        path: `${API}/service/${service.service_id}/bookings?start=${start}&end=${end}`,
      },
      {
        name: 'organization services',
        path: `${API}/organizations/${org.organization_id}/services`,
      },
      // The list as the web app asks it: the first page of a blank search.
      {
        name: 'organization list: first page',
        path: `${API}/organizations?q=&page=1&page_size=${DEFAULT_ORGANIZATIONS_PAGE_SIZE}`,
      },
      // Last: the spec's unpaged list, 670 KB at 100x; what the server still owes when the
      // load stops is worked off before anything else is measured.
      { name: 'organization list', path: `${API}/organizations` },
    ],
    contention: {
      serviceId: roomy.service_id,
      capacity: roomy.capacity,
      slotIds,
      date,
      spare: roomySlots.today,
    },
  };
}

/** The bytes the real server answered, for the bare server to answer the same. */
async function capture(base: string, p: string): Promise<BareRoute> {
  const res = await fetch(`${base}${p}`);
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${p} answered ${res.status}: ${body}`);
  return {
    method: 'GET',
    path: p.split('?')[0] ?? p,
    query: p.split('?')[1] ?? '',
    status: res.status,
    contentType: res.headers.get('content-type') ?? 'application/json',
    body: body.toString('base64'),
  };
}

/** No answer, no latency: NaN rather than a p99 of 0 that would look like a fine figure. */
const p99Of = (r: LoadResult) => (r.total > 0 ? r.p99 : Number.NaN);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Every answer a 2xx, none lost, and at least one: a run with no answer has no p99. */
const clean = (r: LoadResult) =>
  r.total > 0 && r.non2xx === 0 && r.errors === 0 && r.timeouts === 0;
const describe = (r: LoadResult) =>
  `${Math.round(r.requestsPerSecond)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ` +
  `${r.total} requests${clean(r) ? '' : `, ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`}`;

/**
 * Waits until the server has worked off the requests still queued when the load stopped
 * (a slow route leaves up to 64 behind), so that they do not count against the next run.
 */
async function settle(api: RunningServer): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < 300_000) {
    const t = performance.now();
    try {
      const res = await fetch(`${api.base}${API}/health`);
      await res.arrayBuffer();
      if (res.ok && performance.now() - t < 1000) {
        const waited = Date.now() - start;
        if (waited > 2000) console.log(`  (the server worked off its queue in ${waited} ms)`);
        return;
      }
    } catch {}
  }
  console.log('  (the server still had not worked off its queue after 300 s)');
}

interface ReadRun {
  read: Read;
  real: LoadResult;
  bare: LoadResult[];
  bytes: number;
}

/**
 * Each read: bare, real, bare again (the machine is shared: the baseline is measured
 * around the figure, not once for the run). Quick runs skip the second bare run.
 */
async function measureReads(
  api: RunningServer,
  catalogue: Catalogue,
  opts: LoadOptions,
  withBare: boolean,
  quick: boolean,
): Promise<ReadRun[]> {
  const routes = await Promise.all(catalogue.reads.map((r) => capture(api.base, r.path)));
  const bare = withBare ? await startBare(routes) : null;
  try {
    const runs: ReadRun[] = [];
    for (const [i, read] of catalogue.reads.entries()) {
      const bareRuns: LoadResult[] = [];
      if (bare) bareRuns.push(await load(`${bare.base}${read.path}`, opts));
      const real = await load(`${api.base}${read.path}`, opts);
      await settle(api);
      if (bare && !quick) bareRuns.push(await load(`${bare.base}${read.path}`, opts));
      runs.push({
        read,
        real,
        bare: bareRuns,
        bytes: Buffer.from(routes[i]?.body ?? '', 'base64').length,
      });
      console.log(
        `  ${read.name}: ${describe(real)}${bareRuns.length ? ` | bare ${bareRuns.map(describe).join(' / ')}` : ''}`,
      );
    }
    return runs;
  } finally {
    await bare?.stop();
  }
}

function readFigures(engine: Engine, runs: ReadRun[]): Figure[] {
  const figures: Figure[] = [];
  for (const { read, real, bare, bytes } of runs) {
    const bareRps = mean(bare.map((b) => b.requestsPerSecond));
    const bareP99 = mean(bare.map((b) => b.p99));
    const ratio = real.requestsPerSecond / bareRps;
    const detail = `${read.path} (${bytes} bytes): ${describe(real)}; bare ${bare.map(describe).join(' / ')}`;
    figures.push(
      {
        name: `${read.name}: throughput`,
        engine,
        value: real.requestsPerSecond,
        unit: 'req/s',
        baseline: bareRps,
        ratio,
        target: `>= ${RATIO_TARGET} x bare`,
        met: ratio >= RATIO_TARGET && clean(real),
        detail,
      },
      {
        name: `${read.name}: p99`,
        engine,
        value: p99Of(real),
        unit: 'ms',
        baseline: bareP99,
        ratio: p99Of(real) / bareP99,
        target: `<= ${P99_TARGET_MS} ms`,
        met: real.p99 <= P99_TARGET_MS && clean(real),
      },
    );
  }
  return figures;
}

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
async function contention(
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

async function prepare(store: Store, factor: number): Promise<string> {
  const out = await runNode(
    `data x${factor}`,
    path.join(ROOT, 'bench/lib/grow-data.ts'),
    [String(factor)],
    store.env,
  );
  const r = JSON.parse(out.trim().split('\n').pop() ?? '{}') as {
    counts: Record<string, number>;
    ms: number;
  };
  return Object.entries(r.counts)
    .map(([t, n]) => `${n} ${t}`)
    .join(', ');
}

async function withStore<T>(engine: Engine, run: (store: Store) => Promise<T>): Promise<T> {
  const store = await createStore(engine);
  try {
    return await run(store);
  } finally {
    await store.drop();
  }
}

/** Reads (and contention) at 1×, then the same reads on 10× and 100× the data. */
export async function runEngine(engine: Engine, opts: EngineOptions): Promise<Figure[]> {
  const figures: Figure[] = [];
  const lo = loadOptions(opts.quick);
  // Filled by the 1x stage: the reference of the growth figures.
  const oneX: { runs: ReadRun[]; pick: { orgEmail: string; serviceName: string } }[] = [];
  const needOneX =
    opts.groups.has('reads') || opts.groups.has('growth') || opts.groups.has('contention');
  if (!needOneX) return figures;

  try {
    await withStore(engine, async (store) => {
      // At 1x the server migrates and seeds by itself (SEED_DEMO), as a fresh install does.
      console.log(`\n## ${engine}, 1x: the demo data`);
      const api = await startApi(store);
      try {
        const catalogue = await discover(api.base);
        if (opts.groups.has('reads') || opts.groups.has('growth')) {
          const runs = await measureReads(api, catalogue, lo, opts.groups.has('reads'), opts.quick);
          oneX.push({
            runs,
            pick: { orgEmail: catalogue.orgEmail, serviceName: catalogue.serviceName },
          });
          if (opts.groups.has('reads')) figures.push(...readFigures(engine, runs));
        }
        if (opts.groups.has('contention')) {
          try {
            figures.push(...(await contention(engine, store, api, catalogue.contention)));
          } catch (err) {
            figures.push(failedFigure('contention', err, engine));
          }
        }
      } finally {
        await api.stop();
      }
    });
  } catch (err) {
    // One engine failing (a server that does not start) leaves the other's figures standing.
    figures.push(failedFigure('reads at 1x', err, engine));
  }

  const base = oneX[0];
  if (!opts.groups.has('growth') || !base) return figures;
  const factors = opts.quick ? [10] : [10, 100];
  for (const factor of factors) {
    try {
      await withStore(engine, async (store) => {
        console.log(`\n## ${engine}, ${factor}x: ${await prepare(store, factor)}`);
        const api = await startApi(store);
        let catalogue: Catalogue;
        let runs: ReadRun[];
        try {
          catalogue = await discover(api.base, base.pick);
          runs = await measureReads(api, catalogue, lo, false, opts.quick);
        } finally {
          await api.stop();
        }
        for (const run of runs) {
          const ref = base.runs.find((r) => r.read.name === run.read.name);
          if (!ref) continue;
          const ratio = p99Of(run.real) / p99Of(ref.real);
          figures.push({
            name: `${run.read.name}: p99 at ${factor}x data`,
            engine,
            value: p99Of(run.real),
            unit: 'ms',
            baseline: p99Of(ref.real),
            ratio,
            target: `<= ${GROWTH_TARGET} x p99 at 1x`,
            met: ratio <= GROWTH_TARGET && clean(run.real) && clean(ref.real),
            detail: `${run.bytes} bytes (1x: ${ref.bytes}); ${describe(run.real)}; 1x: ${describe(ref.real)}`,
          });
        }
        if (factor === factors[factors.length - 1]) {
          const text = await runNode(
            'explain',
            path.join(ROOT, 'bench/lib/explain-queries.ts'),
            [JSON.stringify(catalogue.reads.map((r) => r.path))],
            store.env,
          );
          const file = path.join(opts.resultsDir, `explain-${factor}x.txt`);
          mkdirSync(opts.resultsDir, { recursive: true });
          appendFileSync(
            file,
            `\n==================== ${engine}, ${factor}x ====================\n${text}`,
          );
        }
      });
    } catch (err) {
      figures.push(failedFigure(`growth ${factor}x`, err, engine));
    }
  }
  return figures;
}
