import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { en } from '../apps/web/src/i18n/en';
import { launch, MOBILE } from './support/browser';
import { buildWeb, ROOT, type RunningServer, startServer } from './support/server';

/**
 * Decision 027: a phone holds a page of build 1 when build 2 is deployed (its chunks have new
 * names; the old ones are gone). Its next tap needs a chunk of build 1: the page reloads once,
 * on the address tapped, and shows that screen from build 2 — never a blank page. A build that
 * really lacks a chunk gets the route's error and Retry, not a second reload.
 */
let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let web: string;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** The built file of a route's page, as the build manifest names it (assets/x-HASH.js). */
function chunkOf(dist: string, route: string): string {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string }
  >;
  const entry = manifest[`src/app/routes/${route}.tsx`];
  if (!entry) throw new Error(`No chunk for the ${route} page in the build manifest`);
  return join(dist, entry.file);
}

/**
 * Build 2, made from build 1 as a deploy would leave it: `chunk` and every built file that
 * names it (and so on) under a new hashed name, every reference rewritten, their precompressed
 * copies dropped. Returns the old names that are gone.
 */
function redeploy(dist: string, chunk: string): string[] {
  const code = files(join(dist, 'assets')).filter((f) => /\.(js|css)$/.test(f));
  const renamed = new Set([chunk]);
  for (let grew = true; grew; ) {
    grew = false;
    const names = [...renamed].map((f) => basename(f));
    for (const file of code) {
      if (renamed.has(file)) continue;
      const text = readFileSync(file, 'utf8');
      if (names.some((n) => text.includes(n))) {
        renamed.add(file);
        grew = true;
      }
    }
  }
  const fresh = (name: string) => name.replace(/-([A-Za-z0-9_-]{8,})\.(js|css)$/, '-$1b2.$2');
  const pattern = new RegExp(
    [...renamed].map((f) => basename(f).replace(/[.-]/g, '\\$&')).join('|'),
    'g',
  );
  for (const file of files(dist).filter((f) => /\.(js|css|html|json)$/.test(f))) {
    const text = readFileSync(file, 'utf8');
    const rewritten = text.replace(pattern, (name) => fresh(name));
    if (rewritten === text && !renamed.has(file)) continue;
    writeFileSync(file, rewritten);
    rmSync(`${file}.br`, { force: true });
    rmSync(`${file}.gz`, { force: true });
  }
  for (const file of renamed) renameSync(file, join(dist, 'assets', fresh(basename(file))));
  return [...renamed].map((f) => basename(f));
}

beforeAll(async () => {
  buildWeb();
  // Its own copy of the build: the deploy rewrites it under this file's server only.
  web = mkdtempSync(join(tmpdir(), 'qless-stale-'));
  for (const part of ['dist', 'dist-ssr']) {
    cpSync(join(ROOT, 'apps/web', part), join(web, part), { recursive: true });
  }
  tdb = await createTestDatabase('postgres');
  server = await startServer({
    env: { DATABASE_URL: tdb.url ?? '', WEB_DIST_DIR: join(web, 'dist') },
  });
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
  if (web) rmSync(web, { recursive: true, force: true });
});

describe('a page of the previous build after a deploy, at 360 px', () => {
  it('reloads once on the tapped address and shows its screen; a chunk no build has: Retry, no second reload', async () => {
    const context = await browser.newContext({ viewport: MOBILE, locale: 'en-GB' });
    const page: Page = await context.newPage();
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });
    const missing: string[] = [];
    page.on('response', (res) => {
      if (res.status() === 404 && res.url().includes('/assets/')) missing.push(res.url());
    });
    await page.goto(`${server.origin}/organizations`);
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    const card = page.locator('a.org-card').first();
    const name = (await card.locator('.org-card__name').textContent())?.trim() ?? '';
    expect(name).not.toBe('');
    expect(loads).toBe(1);

    // The deploy: the server stops, build 2 replaces build 1, a server starts on it.
    const dist = join(web, 'dist');
    const services = chunkOf(dist, 'services');
    const port = server.port;
    await server.stop();
    const gone = redeploy(dist, services);
    expect(gone).toContain(basename(services));
    expect(statSync(join(dist, 'index.html')).isFile()).toBe(true);
    server = await startServer({
      port,
      env: { DATABASE_URL: tdb.url ?? '', WEB_DIST_DIR: dist },
    });

    // The tap needs build 1's services chunk: a 404, one reload, the screen of that address.
    const href = await card.getAttribute('href');
    await card.click();
    await page
      .getByRole('heading', { level: 1, name: en['services.title'].replace('{org}', name) })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe(href);
    expect(missing.some((url) => url.endsWith(basename(services)))).toBe(true);
    expect(loads).toBe(2);
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    await page.locator('a.service-card').first().waitFor();

    // A build that lacks a chunk (its slots page): the route's error with Retry, no reload.
    rmSync(chunkOf(dist, 'slots'));
    rmSync(`${chunkOf(dist, 'slots')}.br`, { force: true });
    await page.locator('a.service-card').first().click();
    await page.getByRole('heading', { level: 1, name: en['routeError.title'] }).waitFor();
    await page.waitForTimeout(1500);
    expect(loads).toBe(2);
    expect(await page.locator('.site-header').isVisible()).toBe(true);
    await context.close();
  });
});
