import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The projects one after another, the largest first, and the longest file first within each
 * (decisions 114, 117).
 *
 * Vitest's own order runs the projects one after another (api, api-pglite, e2e, unit) and,
 * on a fresh clone with no results cache (CI), the larger files first within each: the
 * browser files then all start late, together, and the run ends on a tail where one or two
 * of the workers are busy. Here the largest project (the browser files) goes first and
 * the unit files (a few milliseconds each) last, so the short files fill the tail.
 *
 * Files of one project stay together because Vitest keeps a worker for the next file only
 * when that file is of the same project (its pool looks at the head of the queue): mixing
 * the projects, as the longest-first order across all of them did, started 68 workers for
 * 238 files, each importing its modules again (89 CPU-s of a CPU-bound run; decision 117).
 *
 * A file's expected time is Vitest's cached time when this checkout has one, else the
 * committed table (`npm run test:durations` refreshes it), else a guess from its size for a
 * file newer than the table.
 */
export default class LongestFirst extends BaseSequencer {
  private table: Record<string, number> | null = null;

  private expected(spec: TestSpecification): number {
    const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
    const cached = this.ctx.cache.getFileTestResults(key)?.duration;
    if (cached !== undefined) return cached / 1000;
    this.table ??= readTable();
    const known = this.table[key];
    if (known !== undefined) return known;
    // About a second per 4 KB of a browser or API test, a tenth of that for a unit test.
    const kb = statSync(spec.moduleId).size / 1024;
    return spec.project.name === 'unit' ? kb / 40 : kb / 4;
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const expected = new Map(files.map((spec) => [spec, this.expected(spec)]));
    const projectTotal = new Map<string, number>();
    for (const [spec, seconds] of expected) {
      projectTotal.set(spec.project.name, (projectTotal.get(spec.project.name) ?? 0) + seconds);
    }
    // Unit files last whatever their sum: they start in a fraction of a second and take
    // milliseconds, the best filler for the end of the run. A project whose files import the
    // app (api-redis, the mocks) placed there instead cost a new worker's imports each in
    // the tail: 13 s of a run where little else was left.
    const total = (spec: TestSpecification) =>
      spec.project.name === 'unit' ? -1 : (projectTotal.get(spec.project.name) ?? 0);
    return [...files].sort(
      (a, b) =>
        total(b) - total(a) ||
        a.project.name.localeCompare(b.project.name) ||
        (expected.get(b) ?? 0) - (expected.get(a) ?? 0),
    );
  }
}

function readTable(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(new URL('./vitest.durations.json', import.meta.url), 'utf8'));
  } catch {
    return {};
  }
}
