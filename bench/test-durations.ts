/**
 * Writes vitest.durations.json, the expected time of each test file that vitest.sequencer.ts
 * orders by on a checkout without Vitest's results cache (a fresh clone, CI): run the whole
 * suite once (`npm test`), then `npm run test:durations`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const CACHE = join(ROOT, 'node_modules/.vite/vitest');

const table: Record<string, number> = {};
for (const dir of readdirSync(CACHE)) {
  const file = join(CACHE, dir, 'results.json');
  let results: [string, { duration: number }][];
  try {
    results = JSON.parse(readFileSync(file, 'utf8')).results;
  } catch {
    continue;
  }
  for (const [key, { duration }] of results) {
    // "project:path"; a file deleted since (or a helper's scratch file) is not kept.
    if (!existsSync(join(ROOT, key.slice(key.indexOf(':') + 1)))) continue;
    table[key] = Math.round(duration / 100) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(table).sort(([, a], [, b]) => b - a));
writeFileSync(join(ROOT, 'vitest.durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`vitest.durations.json: ${Object.keys(sorted).length} files`);
