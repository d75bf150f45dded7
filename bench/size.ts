/**
 * JavaScript budget per route, from the Vite manifest of apps/web/dist.
 * Run `npm run build -w @qless/web` first, then `npm run size`. Exits 1 over budget.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const dist = resolve(import.meta.dirname, '../apps/web/dist');
const manifestPath = join(dist, '.vite/manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`No manifest at ${manifestPath}: run "npm run build -w @qless/web" first.`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;

const KB = 1024;
const ROUTES = 'src/app/routes/';

/** Chunks a page needs before it runs: the key itself and its static imports, transitively. */
function staticClosure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...keys];
  while (stack.length) {
    const key = stack.pop() as string;
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`Manifest has no chunk ${key}`);
    seen.add(key);
    stack.push(...(chunk.imports ?? []));
  }
  return seen;
}

const gzCache = new Map<string, number>();
function gzipSize(file: string): number {
  let size = gzCache.get(file);
  if (size === undefined) {
    const path = join(dist, file);
    size = existsSync(`${path}.gz`)
      ? readFileSync(`${path}.gz`).length
      : gzipSync(readFileSync(path), { level: 9 }).length;
    gzCache.set(file, size);
  }
  return size;
}

function jsBytes(keys: Set<string>): number {
  let total = 0;
  for (const key of keys) {
    const file = manifest[key]?.file;
    if (file?.endsWith('.js')) total += gzipSize(file);
  }
  return total;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
if (!entryKey) throw new Error('Manifest has no entry');
const routeKey = (name: string): string => {
  const key = Object.keys(manifest).find((k) => k.startsWith(`${ROUTES}${name}.`));
  if (!key) throw new Error(`No chunk for route ${name}`);
  return key;
};
const pdfKey = Object.keys(manifest).find((k) => k.includes('features/tickets/lib/ticket-pdf'));

interface Row {
  name: string;
  keys: string[];
  budget: number | null;
}
const rows: Row[] = [
  { name: '/ (first visit)', keys: [entryKey], budget: 120 * KB },
  { name: '/organizations', keys: [entryKey, routeKey('organizations')], budget: 160 * KB },
  { name: '/{orgId}/services', keys: [entryKey, routeKey('services')], budget: 160 * KB },
  { name: '/service/{id}/slots', keys: [entryKey, routeKey('slots')], budget: 160 * KB },
  {
    name: 'booking flow (/ → orgs → services → slots + modal)',
    keys: [entryKey, routeKey('organizations'), routeKey('services'), routeKey('slots')],
    budget: 160 * KB,
  },
  // The branch picker (issue 20): the catalogue's way to an organization of several branches.
  { name: '/{orgId}/branches', keys: [entryKey, routeKey('branches')], budget: 160 * KB },
  { name: '/contact', keys: [entryKey, routeKey('contact')], budget: 160 * KB },
  { name: '/login', keys: [entryKey, routeKey('login')], budget: 160 * KB },
  // The same-day queue's public pages (issue 19): a TV stick and a walk-in's phone.
  { name: '/board/{token}', keys: [entryKey, routeKey('board')], budget: 160 * KB },
  { name: '/join/{organizationId}', keys: [entryKey, routeKey('join')], budget: 160 * KB },
  { name: '/visit/{visitId}', keys: [entryKey, routeKey('visit')], budget: 160 * KB },
  // A word after the visit (issue 20): the SMS link's page.
  { name: '/feedback/{token}', keys: [entryKey, routeKey('feedback')], budget: 160 * KB },
  { name: 'admin chunk (alone)', keys: [routeKey('admin')], budget: null },
  ...(pdfKey ? [{ name: 'ticket PDF chunk (on download)', keys: [pdfKey], budget: null }] : []),
];

const entryClosure = staticClosure([entryKey]);
let failed = false;
const fmt = (n: number) => `${(n / KB).toFixed(1)} KB`;
console.log('JavaScript per route, gzipped (budget):');
for (const row of rows) {
  let closure = staticClosure(row.keys);
  // A separate chunk is reported without what the entry already loaded.
  if (row.budget === null) closure = new Set([...closure].filter((k) => !entryClosure.has(k)));
  const bytes = jsBytes(closure);
  const over = row.budget !== null && bytes > row.budget;
  if (over) failed = true;
  const budget = row.budget === null ? 'separate chunk' : `≤ ${fmt(row.budget)}`;
  console.log(
    `  ${over ? 'OVER' : 'ok  '}  ${row.name.padEnd(52)} ${fmt(bytes).padStart(9)}  (${budget})`,
  );
}

// The PDF library and admin code must stay out of the first page and the booking flow.
const flow = staticClosure(rows[4]?.keys ?? []);
for (const [label, key] of [
  ['PDF', pdfKey],
  ['admin', routeKey('admin')],
] as const) {
  if (key && flow.has(key)) {
    console.log(`  OVER  the ${label} chunk is statically imported by the booking flow`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
