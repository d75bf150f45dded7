/** What `npm run lighthouse` reads from a Lighthouse result, and how it prints and saves it. */
import type { Result } from 'lighthouse';
import type { Targets } from './profiles.js';

export interface PageFigures {
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
  /** The CPU slowdown this load was simulated with. */
  cpu: number;
}

export interface PageResult extends PageFigures {
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

/** Why a run has no score: its runtime error, else the metric audits that failed. */
export function faultOf(lhr: Result): string | null {
  if (typeof lhr.categories.performance?.score === 'number') return null;
  const failed = Object.values(lhr.audits)
    .filter((audit) => audit.scoreDisplayMode === 'error')
    .map((audit) => `${audit.id}: ${audit.errorMessage ?? 'error'}`);
  return [lhr.runtimeError?.message, ...failed, ...lhr.runWarnings].filter(Boolean).join('; ');
}

export function figuresOf(url: string, lhr: Result): PageFigures {
  const score = lhr.categories.performance?.score;
  if (typeof score !== 'number') {
    throw new Error(`Lighthouse gave no performance score for ${url}: ${faultOf(lhr)}`);
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
    cpu: lhr.configSettings.throttling.cpuSlowdownMultiplier,
  };
}

/**
 * The median run (the lower middle one for an even count): by score where the profile has a
 * score target (Lighthouse's advice), else by LCP, the figure that profile is held to.
 */
export function medianRun<T extends { score: number; lcpMs: number }>(
  runs: T[],
  targets: Targets,
): T {
  if (runs.length === 0) throw new Error('no runs');
  const sorted =
    targets.performance !== null
      ? [...runs].sort((a, b) => a.score - b.score)
      : [...runs].sort((a, b) => b.lcpMs - a.lcpMs);
  return sorted[Math.floor((sorted.length - 1) / 2)] as T;
}

export function missesOf(page: PageFigures, targets: Targets): string[] {
  const misses: string[] = [];
  if (targets.performance !== null && page.score < targets.performance)
    misses.push(`performance ${page.score} < ${targets.performance}`);
  if (page.lcpMs > targets.lcpMs)
    misses.push(`LCP ${Math.round(page.lcpMs)} ms > ${targets.lcpMs} ms`);
  if (page.cls > targets.cls) misses.push(`CLS ${page.cls.toFixed(3)} > ${targets.cls}`);
  return misses;
}

export function targetText(targets: Targets): string {
  const parts = targets.performance !== null ? [`performance ≥ ${targets.performance}`] : [];
  return [...parts, `LCP ≤ ${targets.lcpMs} ms`, `CLS ≤ ${targets.cls}`].join(', ');
}

export function table(pages: PageResult[]): string {
  const head = [
    'page',
    'score',
    'runs',
    'FCP',
    'LCP',
    'TBT',
    'CLS',
    'SI',
    'bytes',
    'bench',
    'cpu',
    '',
  ];
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
    `${p.cpu}x`,
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
export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /\[\s+([^[\]{}]*?)\s+\]/g,
    (whole, inner: string) => {
      const line = `[${inner.split(/,\s+/).join(', ')}]`;
      return line.length <= 60 ? line : whole;
    },
  );
}
