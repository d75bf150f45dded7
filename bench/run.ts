/**
 * `npm run bench`: the server's figures, each against a baseline measured in the same run
 * (this machine is shared and noisy: ratios mean more than absolute numbers).
 *
 * Everything runs in its own process: the production server (`apps/api/src/server.ts`, as
 * `npm start` runs it) on a fresh database, a bare Fastify process answering the same bytes,
 * and the load (autocannon, 64 connections). Groups: reads, growth, contention (both
 * engines), sockets and reconciler (bench/sockets.ts, bench/reconciler.ts), queue (bench/queue.ts:
 * counters calling while boards and customers follow; PostgreSQL with 2 processes, PGlite),
 * insight (bench/insight.ts: a year of a busy branch's figures and CSV, in process).
 *
 *   npm run bench                                   everything (about 6 minutes)
 *   npm run bench -- --quick                        a short smoke run
 *   npm run bench -- --only=reads,contention        some groups
 *   npm run bench -- --engines=postgres             one engine
 *   npm run bench -- queue                          one group (as --only=queue)
 *
 * Writes bench/results/latest.json. Exits non-zero only when the harness itself fails, never
 * because a target was missed (the table says which are).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type Figure,
  type FigureModule,
  failedFigure,
  formatDetails,
  formatTable,
  RESULTS_DIR,
  runMetadata,
  writeResults,
} from './lib/figures.js';
import { cleanupAll, type Engine, ensureWebBuild, postgresReachable } from './lib/processes.js';
import { type Group, runEngine } from './lib/server-figures.js';

const GROUPS = [
  'reads',
  'growth',
  'contention',
  'sockets',
  'reconciler',
  'queue',
  'insight',
] as const;
type AnyGroup = (typeof GROUPS)[number];

function parseArgs(argv: string[]) {
  let quick = false;
  let only: AnyGroup[] = [...GROUPS];
  let engines: Engine[] = ['pglite', 'postgres'];
  for (const arg of argv) {
    if (arg === '--quick') quick = true;
    else if (arg.startsWith('--only=')) {
      const names = arg.slice('--only='.length).split(',').filter(Boolean);
      const unknown = names.filter((n) => !(GROUPS as readonly string[]).includes(n));
      if (unknown.length)
        throw new Error(`unknown group(s) ${unknown.join(', ')}: ${GROUPS.join(', ')}`);
      only = names as AnyGroup[];
    } else if ((GROUPS as readonly string[]).includes(arg)) {
      // `npm run bench -- queue`: the group's name alone, as --only=queue.
      only = [arg as AnyGroup];
    } else if (arg.startsWith('--engines=')) {
      engines = arg.slice('--engines='.length).split(',') as Engine[];
      if (engines.some((e) => e !== 'pglite' && e !== 'postgres'))
        throw new Error('engines: pglite, postgres');
    } else throw new Error(`unknown argument ${arg}`);
  }
  return { quick, only, engines };
}

/** The live helper's modules, when present: `run(opts)` returning figures. */
async function optionalModule(file: string): Promise<FigureModule | null> {
  const full = path.join(import.meta.dirname, file);
  if (!existsSync(full)) return null;
  // Importing a script that runs at load (the pre-issue-11 reconciler bench) would run it.
  if (
    !/export\s+(async\s+)?function\s+run\b|export\s+const\s+run\b/.test(readFileSync(full, 'utf8'))
  ) {
    return null;
  }
  const mod = (await import(pathToFileURL(full).href)) as { run?: FigureModule };
  return typeof mod.run === 'function' ? mod.run : null;
}

async function main(): Promise<void> {
  const { quick, only, engines } = parseArgs(process.argv.slice(2));
  const meta = runMetadata(quick, only);
  console.log(
    `bench ${quick ? '(quick) ' : ''}${only.join(', ')} — node ${meta.node}, ${meta.cpus} CPUs, load ${meta.loadAverage.join(' ')}`,
  );
  const figures: Figure[] = [];
  const serverGroups = new Set(
    only.filter((g): g is Group => g === 'reads' || g === 'growth' || g === 'contention'),
  );
  for (const name of ['explain-10x.txt', 'explain-100x.txt'])
    rmSync(path.join(RESULTS_DIR, name), { force: true });

  if (serverGroups.size > 0) {
    // The server serves the built web app as in production; a fresh clone has none yet.
    ensureWebBuild();
    for (const engine of engines) {
      if (engine === 'postgres' && !(await postgresReachable())) {
        figures.push(failedFigure('server figures', new Error('PostgreSQL not reachable'), engine));
        continue;
      }
      figures.push(
        ...(await runEngine(engine, { quick, groups: serverGroups, resultsDir: RESULTS_DIR })),
      );
    }
  }
  for (const [group, file] of [
    ['sockets', 'sockets.ts'],
    ['reconciler', 'reconciler.ts'],
  ] as const) {
    if (!only.includes(group)) continue;
    const run = await optionalModule(file);
    if (!run) {
      console.log(`\n## ${group}: bench/${file} exports no run(opts) yet, skipped`);
      continue;
    }
    console.log(`\n## ${group}`);
    try {
      figures.push(...(await run({ quick })));
    } catch (err) {
      figures.push(failedFigure(group, err));
    }
  }

  if (only.includes('queue')) {
    console.log('\n## queue');
    try {
      const { run } = await import('./queue.js');
      figures.push(...(await run({ quick, engines: [...engines].reverse() })));
    } catch (err) {
      figures.push(failedFigure('queue', err));
    }
  }

  if (only.includes('insight')) {
    console.log('\n## insight');
    try {
      const { run } = await import('./insight.js');
      figures.push(...(await run({ quick, engines: [...engines].reverse() })));
    } catch (err) {
      figures.push(failedFigure('insight', err));
    }
  }

  console.log(`\n${formatTable(figures)}`);
  const details = formatDetails(figures);
  if (details) console.log(`\n${details}`);
  const file = writeResults(figures, meta);
  console.log(`\nwritten: ${path.relative(process.cwd(), file)}`);
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanupAll();
}
