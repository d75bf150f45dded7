import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One measured figure: the shape every bench module returns (issue 11's interface). */
export interface Figure {
  name: string;
  engine?: 'pglite' | 'postgres';
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  target: string;
  met: boolean;
  detail?: string;
}

/** Every figure module exports this; the runner imports and calls it. */
export type FigureModule = (opts: { quick: boolean }) => Promise<Figure[]>;

export interface RunMetadata {
  date: string;
  commit: string;
  node: string;
  cpus: number;
  /** 1, 5 and 15 minute load averages when the run started: a busy machine skews everything. */
  loadAverage: number[];
  quick: boolean;
  only: string[];
}

export const RESULTS_DIR = path.resolve(import.meta.dirname, '../results');

export function runMetadata(quick: boolean, only: string[]): RunMetadata {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim();
    if (dirty) commit += ' (with uncommitted changes)';
  } catch {}
  return {
    date: new Date().toISOString(),
    commit,
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
    quick,
    only,
  };
}

const round = (n: number | undefined): string => {
  if (n === undefined || !Number.isFinite(n)) return '';
  if (Math.abs(n) >= 100) return n.toFixed(0);
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
};

/** A plain-text table: one line per figure, aligned columns, then the details. */
export function formatTable(figures: Figure[]): string {
  const header = ['figure', 'engine', 'value', 'unit', 'baseline', 'ratio', 'target', 'met'];
  const rows = figures.map((f) => [
    f.name,
    f.engine ?? '',
    round(f.value),
    f.unit,
    round(f.baseline),
    round(f.ratio),
    f.target,
    f.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = new Set([2, 4, 5]);
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const out = [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  const met = figures.filter((f) => f.met).length;
  out.push('', `targets met: ${met} of ${figures.length}`);
  const missed = figures.filter((f) => !f.met);
  if (missed.length > 0) {
    out.push(
      `not met: ${missed.map((f) => `${f.name}${f.engine ? ` (${f.engine})` : ''}`).join('; ')}`,
    );
  }
  return out.join('\n');
}

/** Details on their own lines: they are too long for the table. */
export function formatDetails(figures: Figure[]): string {
  return figures
    .filter((f) => f.detail)
    .map((f) => `- ${f.name}${f.engine ? ` (${f.engine})` : ''}: ${f.detail}`)
    .join('\n');
}

export function writeResults(
  figures: Figure[],
  meta: RunMetadata,
  extra: Record<string, unknown> = {},
): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, 'latest.json');
  writeFileSync(file, `${JSON.stringify({ ...meta, ...extra, figures }, null, 2)}\n`);
  return file;
}

/** A figure whose run failed: the table says so rather than the whole bench stopping. */
export function failedFigure(name: string, err: unknown, engine?: Figure['engine']): Figure {
  return {
    name,
    ...(engine ? { engine } : {}),
    value: Number.NaN,
    unit: '',
    target: 'ran',
    met: false,
    detail: `failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500),
  };
}
