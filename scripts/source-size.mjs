/**
 * Part of `npm run lint`: no source file over 400 lines, so that a file stays one job a reader
 * can hold in mind. Counts the source under apps/<app>/src and packages/<package>/src
 * (.ts, .tsx, .js, .mjs); not tests, and not the files below, which are data, not code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const MAX_LINES = 400;
/** Data, not code: the words of each language, and the demo organizations. */
const DATA = new Set([
  'apps/web/src/i18n/en.ts',
  'apps/web/src/i18n/fr.ts',
  'apps/api/src/demo/seed-data.ts',
]);

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      yield full;
    }
  }
}

const roots = ['apps', 'packages'].flatMap((top) =>
  readdirSync(join(ROOT, top), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(ROOT, top, d.name, 'src')),
);
const over = [];
let counted = 0;
for (const root of roots) {
  let files;
  try {
    files = [...sources(root)];
  } catch {
    continue; // a workspace without src/
  }
  for (const file of files) {
    const path = relative(ROOT, file);
    if (DATA.has(path)) continue;
    counted += 1;
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_LINES) over.push(`${path}: ${lines} lines`);
  }
}
if (over.length > 0) {
  console.error(
    `Source files over ${MAX_LINES} lines (split them by job):\n  ${over.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`source size: ${counted} files, none over ${MAX_LINES} lines`);
