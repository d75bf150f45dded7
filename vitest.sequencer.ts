import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest file first, across every project (decision 114).
 *
 * Vitest's own order runs the projects one after another (api, api-pglite, e2e, unit) and,
 * on a fresh clone with no results cache (CI), the larger files first within each: the
 * browser files then all start late, together, and the run ends on a tail where one or two
 * of the four workers are busy. Starting the longest files first, whatever their project,
 * lets the short ones fill the gaps. A file's expected time is Vitest's cached time when this
 * checkout has one, else the committed table (`npm run test:durations` refreshes it), else
 * a guess from its size for a file newer than the table.
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
    return [...files].sort((a, b) => (expected.get(b) ?? 0) - (expected.get(a) ?? 0));
  }
}

function readTable(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(new URL('./vitest.durations.json', import.meta.url), 'utf8'));
  } catch {
    return {};
  }
}
