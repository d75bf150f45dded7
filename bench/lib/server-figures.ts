import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { addDays, DEFAULT_ORGANIZATIONS_PAGE_SIZE, dayOfWeek, weekStart } from '@qless/contract';
import { API, getJson, type TakenJson } from './api-json.js';
import { contention } from './contention.js';
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
import { clean, describe, p99Of, type Read, type ReadRun, readFigures } from './read-figures.js';

const GROWTH_TARGET = 1.5;

export type Group = 'reads' | 'growth' | 'contention';

export interface EngineOptions {
  quick: boolean;
  groups: Set<Group>;
  /** Where explain-<factor>x.txt goes. */
  resultsDir: string;
}

export interface Catalogue {
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
      const onBare = { ...opts, cpuPid: bare?.pid };
      if (bare) bareRuns.push(await load(`${bare.base}${read.path}`, onBare));
      const real = await load(`${api.base}${read.path}`, { ...opts, cpuPid: api.pid });
      await settle(api);
      if (bare && !quick) bareRuns.push(await load(`${bare.base}${read.path}`, onBare));
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
