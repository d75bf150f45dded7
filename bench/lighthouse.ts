/**
 * `npm run lighthouse`: Lighthouse 12.2.3 (mobile, regular 3G, simulated throttling) on the
 * public pages of the production build, served by the real server with fresh demo data.
 *
 *   npm run lighthouse [-- --runs=3] [--urls=/,/organizations,/service/{service}/slots]
 *                      [--ci] [--save-lhr=DIR]
 *
 * Each URL is measured `--runs` times; the run with the median performance score is kept
 * (Lighthouse's advice for variance). `{service}` in a URL is replaced by a demo service's id.
 * Prints a table, writes bench/results/lighthouse.json, and exits 1 when a page's median run
 * misses a target. `--ci` uses the build already in apps/web/dist (CI builds just before) and
 * fails if there is none; without it the web app is built when its sources are newer.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config, type Result } from 'lighthouse';
import { screenEmulationMetrics, throttling } from 'lighthouse/core/config/constants.js';
import { CHROMIUM, CHROMIUM_FLAGS } from '../e2e/support/chromium.js';
import { ROOT, startServer } from '../e2e/support/server.js';

/** Issue 11's targets for every page (median run). */
const TARGET_PERFORMANCE = 95;
const TARGET_LCP_MS = 2500;
const TARGET_CLS = 0.02;

const CHROME_PATH = process.env.CHROME_PATH ?? CHROMIUM;
/** Path routes (issue 11). Before them: --urls=/,/#/organizations,/#/service/{service}/slots */
const DEFAULT_URLS = ['/', '/organizations', '/service/{service}/slots'];
const RESULTS = resolve(import.meta.dirname, 'results/lighthouse.json');

// Regular 3G as Lighthouse defines it: 300 ms RTT, 700 Kbps, 4x CPU.
const REGULAR_3G = throttling.mobileRegular3G;
if (
  REGULAR_3G.rttMs !== 300 ||
  REGULAR_3G.throughputKbps !== 700 ||
  REGULAR_3G.cpuSlowdownMultiplier !== 4
) {
  throw new Error(`Lighthouse's regular 3G changed: ${JSON.stringify(REGULAR_3G)}`);
}

const CONFIG: Config = {
  extends: 'lighthouse:default',
  settings: {
    onlyCategories: ['performance'],
    formFactor: 'mobile',
    screenEmulation: screenEmulationMetrics.mobile,
    throttlingMethod: 'simulate',
    throttling: REGULAR_3G,
  },
};

interface PageFigures {
  url: string;
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  siMs: number;
  totalBytes: number;
  /** Lighthouse's measure of this machine's speed at the time (a loaded machine scores low). */
  benchmarkIndex: number;
}

interface PageResult extends PageFigures {
  /** Scores of every run, in run order. */
  runs: number[];
  met: boolean;
  misses: string[];
}

function numeric(lhr: Result, audit: string): number {
  const value = lhr.audits[audit]?.numericValue;
  if (typeof value !== 'number')
    throw new Error(`Lighthouse gave no ${audit} for ${lhr.finalDisplayedUrl}`);
  return value;
}

function figuresOf(url: string, lhr: Result): PageFigures {
  const score = lhr.categories.performance?.score;
  if (typeof score !== 'number') {
    const warnings = lhr.runWarnings.join('; ');
    throw new Error(
      `Lighthouse gave no performance score for ${url}: ${lhr.runtimeError?.message ?? warnings}`,
    );
  }
  return {
    url,
    score: Math.round(score * 100),
    fcpMs: numeric(lhr, 'first-contentful-paint'),
    lcpMs: numeric(lhr, 'largest-contentful-paint'),
    tbtMs: numeric(lhr, 'total-blocking-time'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    siMs: numeric(lhr, 'speed-index'),
    totalBytes: numeric(lhr, 'total-byte-weight'),
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
  };
}

/** The run with the median score (the lower middle one for an even count). */
function medianRun<T extends { score: number }>(runs: T[]): T {
  if (runs.length === 0) throw new Error('no runs');
  const sorted = [...runs].sort((a, b) => a.score - b.score);
  return sorted[Math.floor((sorted.length - 1) / 2)] as T;
}

function missesOf(page: PageFigures): string[] {
  const misses: string[] = [];
  if (page.score < TARGET_PERFORMANCE)
    misses.push(`performance ${page.score} < ${TARGET_PERFORMANCE}`);
  if (page.lcpMs > TARGET_LCP_MS)
    misses.push(`LCP ${Math.round(page.lcpMs)} ms > ${TARGET_LCP_MS} ms`);
  if (page.cls > TARGET_CLS) misses.push(`CLS ${page.cls.toFixed(3)} > ${TARGET_CLS}`);
  return misses;
}

function table(pages: PageResult[]): string {
  const head = ['page', 'score', 'runs', 'FCP', 'LCP', 'TBT', 'CLS', 'SI', 'bytes', 'bench', ''];
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const rows = pages.map((p) => [
    p.url,
    String(p.score),
    p.runs.join('/'),
    s(p.fcpMs),
    s(p.lcpMs),
    `${Math.round(p.tbtMs)} ms`,
    p.cls.toFixed(3),
    s(p.siMs),
    `${(p.totalBytes / 1024).toFixed(1)} KB`,
    String(p.benchmarkIndex),
    p.met ? 'ok' : `MISS: ${p.misses.join(', ')}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}

/** Indented JSON with arrays of plain values on one line, as Biome formats it. */
function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /\[\s+([^[\]{}]*?)\s+\]/g,
    (whole, inner: string) => {
      const line = `[${inner.split(/,\s+/).join(', ')}]`;
      return line.length <= 60 ? line : whole;
    },
  );
}

/** A demo service's id, for the slots deep link. */
async function anyServiceId(origin: string): Promise<string> {
  const orgs = (await (await fetch(`${origin}/api/v1/organizations`)).json()) as {
    organizations: { organization_id: string }[];
  };
  for (const org of orgs.organizations) {
    const res = await fetch(
      `${origin}/api/v1/organizations/${encodeURIComponent(org.organization_id)}/services`,
    );
    const { services } = (await res.json()) as { services: { service_id: string }[] };
    if (services[0]) return services[0].service_id;
  }
  throw new Error('The demo data has no service');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: process.env.LIGHTHOUSE_RUNS ?? '3' },
      urls: { type: 'string', default: process.env.LIGHTHOUSE_URLS ?? DEFAULT_URLS.join(',') },
      ci: { type: 'boolean', default: false },
      'save-lhr': { type: 'string' },
    },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number ≥ 1`);
  const paths = values.urls
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (values.ci && !existsSync(join(ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('No build in apps/web/dist: run `npm run build` first');
  }
  const saveDir = values['save-lhr'] ? resolve(values['save-lhr']) : null;
  if (saveDir) mkdirSync(saveDir, { recursive: true });

  const started = performance.now();
  if (!values.ci) {
    // Always a fresh production build: a dist left by another tool may be stale or a dev build.
    execFileSync('npm', ['run', 'build', '-w', '@qless/web'], {
      cwd: ROOT,
      stdio: 'pipe',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  const server = await startServer({
    env: { NODE_ENV: 'production', PAYMENT_PROVIDER: 'simulator', LOG_LEVEL: 'warn' },
  });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    const serviceId = await anyServiceId(server.origin);
    chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROMIUM_FLAGS });
    const pages: PageResult[] = [];
    let version = '';
    for (const path of paths) {
      const url = `${server.origin}${path.replace('{service}', encodeURIComponent(serviceId))}`;
      const measured: (PageFigures & { lhr: Result })[] = [];
      for (let i = 0, failures = 0; i < runs; ) {
        const result = await lighthouse(
          url,
          { port: chrome.port, logLevel: 'error', output: 'json' },
          CONFIG,
        );
        if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
        // A broken trace (NO_NAVSTART, NO_FCP) happens now and then on a loaded machine: a
        // fault of the measurement, not the page, so it is run again (twice at most).
        if (result.lhr.runtimeError?.code.startsWith('NO_') && ++failures <= 2) {
          console.warn(`${path}: ${result.lhr.runtimeError.code}, measuring again`);
          continue;
        }
        version = result.lhr.lighthouseVersion;
        measured.push({ ...figuresOf(path, result.lhr), lhr: result.lhr });
        i++;
      }
      const { lhr, ...median } = medianRun(measured);
      if (saveDir) {
        // The median run as <page>.json, every run as <page>.<n>.json (for the traces' details).
        const name = path.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home';
        writeFileSync(join(saveDir, `${name}.json`), JSON.stringify(lhr));
        measured.forEach((run, n) => {
          writeFileSync(join(saveDir, `${name}.${n + 1}.json`), JSON.stringify(run.lhr));
        });
      }
      const misses = missesOf(median);
      pages.push({
        ...median,
        runs: measured.map((m) => m.score),
        met: misses.length === 0,
        misses,
      });
    }

    const met = pages.every((p) => p.met);
    console.log(
      `Lighthouse ${version} · mobile · regular 3G (300 ms RTT, 700 Kbps, 4x CPU, simulated) · median of ${runs}`,
    );
    console.log(table(pages));
    console.log(
      `targets: performance ≥ ${TARGET_PERFORMANCE}, LCP ≤ ${TARGET_LCP_MS} ms, CLS ≤ ${TARGET_CLS} — ${met ? 'met' : 'MISSED'} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
    mkdirSync(resolve(RESULTS, '..'), { recursive: true });
    writeFileSync(
      RESULTS,
      `${formatJson({
        date: new Date().toISOString(),
        lighthouse: version,
        settings: {
          formFactor: 'mobile',
          throttlingMethod: 'simulate',
          throttling: REGULAR_3G,
          runs,
        },
        targets: { performance: TARGET_PERFORMANCE, lcpMs: TARGET_LCP_MS, cls: TARGET_CLS },
        met,
        pages,
      })}\n`,
    );
    process.exitCode = met ? 0 : 1;
  } finally {
    chrome?.kill();
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
