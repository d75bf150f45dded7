import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launch, MOBILE, snap } from './support/browser';
import { ROOT, type RunningServer, startServer } from './support/server';

/**
 * Decision 107: every page arrives as its own server-rendered HTML (with the data it starts
 * from), then hydrates without a mismatch, a spinner or a layout shift.
 */
let server: RunningServer;
let browser: Browser;
let orgId = '';
let orgName = '';
let serviceId = '';
let serviceName = '';

const escapeHtml = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll("'", '&#x27;');

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
  const { organizations } = (await (
    await fetch(`${server.origin}/api/v1/organizations`)
  ).json()) as { organizations: { organization_id: string; name: string }[] };
  const org = organizations.find((o) => o.name === 'Bamenda Regional Hospital');
  if (!org) throw new Error('seed has no Bamenda Regional Hospital');
  orgId = org.organization_id;
  orgName = org.name;
  const { services } = (await (
    await fetch(`${server.origin}/api/v1/organizations/${orgId}/services`)
  ).json()) as { services: { service_id: string; service_name: string }[] };
  const service = services[0];
  if (!service) throw new Error('seed has no service');
  serviceId = service.service_id;
  serviceName = service.service_name;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function html(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.origin}${path}`, {
    headers: { accept: 'text/html', ...headers },
  });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

function embedded(body: string): { api: Record<string, unknown> } {
  const json = /<script type="application\/json" id="qless-data">([^<]*)<\/script>/.exec(body);
  if (!json?.[1]) throw new Error('no embedded data');
  return JSON.parse(json[1]) as { api: Record<string, unknown> };
}

const LANGS = [
  { lang: 'en', landing: 'Book your spot in seconds.', orgs: 'Featured Organizations' },
  {
    lang: 'fr',
    landing: 'Réservez votre place en quelques secondes.',
    orgs: 'Organisations à la une',
  },
] as const;

describe('server-rendered HTML', () => {
  for (const { lang, landing, orgs } of LANGS) {
    it(`carries each public page's content, in ${lang} (cookie)`, async () => {
      const cookie = { cookie: `qless.lang=${lang}` };
      const home = await html('/', cookie);
      expect(home.status).toBe(200);
      expect(home.body).toContain(`<html lang="${lang}"`);
      expect(home.body).toContain(escapeHtml(landing));

      const list = await html('/organizations', cookie);
      expect(list.status).toBe(200);
      expect(list.body).toContain(escapeHtml(orgName));
      expect(list.body).toContain(orgs);
      expect(list.body).toContain(`<title>${orgs} · Qless</title>`);
      expect(Object.keys(embedded(list.body).api)).toEqual([
        '/api/v1/organizations?q=&page=1&page_size=12',
      ]);
      // The route's chunk is asked for early, without blocking the first paint.
      expect(list.body).toMatch(/<meta name="qless-preload" content="\/assets\/organizations-/);

      const services = await html(`/${orgId}/services`, cookie);
      expect(services.status).toBe(200);
      expect(services.body).toContain('class="service-card');

      const slots = await html(`/service/${serviceId}/slots`, cookie);
      expect(slots.status).toBe(200);
      expect(slots.body).toContain(escapeHtml(orgName));
      // The phone's day strip with its slot buttons, the taken seats already known.
      expect(slots.body).toContain('class="strip"');
      expect(slots.body).toMatch(/<button[^>]*class="slot /);
      const keys = Object.keys(embedded(slots.body).api);
      expect(keys).toContain(`/api/v1/service/${serviceId}/slots`);
      expect(keys.some((k) => k.startsWith(`/api/v1/service/${serviceId}/bookings?start=`))).toBe(
        true,
      );
      // One inline script, the boot (allowed by its hash): React moved nothing in by script.
      expect(slots.body.match(/<script>/g)).toHaveLength(1);
      expect(slots.body).toMatch(/<script>\(function\(\)\{var d=document/);
    });
  }

  it('follows Accept-Language without a cookie, English otherwise', async () => {
    const fr = await html('/organizations', { 'accept-language': 'fr-CM,fr;q=0.9,en;q=0.5' });
    expect(fr.body).toContain('<html lang="fr"');
    const other = await html('/organizations', { 'accept-language': 'de-DE,de;q=0.9' });
    expect(other.body).toContain('<html lang="en"');
  });

  it('answers unknown pages and ids with the not-found page and 404; the API and assets as before', async () => {
    const unknown = await html('/no/such/page');
    expect(unknown.status).toBe(404);
    expect(unknown.type).toContain('text/html');
    expect(unknown.body).toContain('Page not found');
    const service = await html('/service/00000000-0000-4000-8000-000000000000/slots');
    expect(service.status).toBe(404);
    expect(service.body).toContain('Service not found');
    const org = await html('/00000000-0000-4000-8000-000000000000/services');
    expect(org.status).toBe(404);

    const api = await fetch(`${server.origin}/api/v1/no-such-route`, {
      headers: { accept: 'text/html' },
    });
    expect({ status: api.status, body: await api.json() }).toEqual({
      status: 404,
      body: { code: 'NOT_FOUND', message: 'No route for GET /api/v1/no-such-route' },
    });
    const asset = await fetch(`${server.origin}/assets/nope-12345678.js`);
    expect(asset.status).toBe(404);
    expect(asset.headers.get('content-type')).toContain('application/json');

    // Built assets: precompressed, and immutable whichever encoding is sent.
    const entry = /\/assets\/index-[^"]+\.js/.exec((await html('/')).body)?.[0] ?? '';
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await fetch(`${server.origin}${entry}`, {
        headers: { 'accept-encoding': encoding },
      });
      expect({ encoding, status: res.status, cache: res.headers.get('cache-control') }).toEqual({
        encoding,
        status: 200,
        cache: 'public, max-age=31536000, immutable',
      });
    }
  });
});

/** Records console errors and warnings, hydration spinners and layout shifts. */
async function watched(context: BrowserContext) {
  await context.addInitScript(`
    window.__shifts = 0;
    window.__spinners = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) {
        if (n.nodeType === 1 && (n.matches('.spinner') || n.querySelector('.spinner'))) {
          window.__spinners.push(document.readyState + (document.documentElement.hasAttribute('data-live') ? ' live' : ''));
        }
      }
    }).observe(document, { childList: true, subtree: true });
  `);
  const page = await context.newPage();
  const messages: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') messages.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
  return { page, messages };
}

describe('hydration at 360 px', () => {
  for (const { lang } of LANGS) {
    it(`hydrates each public page with no mismatch, no spinner and no layout shift, in ${lang}`, async () => {
      const context = await browser.newContext({ viewport: MOBILE, reducedMotion: 'reduce' });
      await context.addCookies([{ name: 'qless.lang', value: lang, url: server.origin }]);
      const { page, messages } = await watched(context);
      const routes: [string, string, string][] = [
        ['landing', '/', '.hero__title'],
        ['organizations', '/organizations', '.org-card'],
        ['services', `/${orgId}/services`, '.service-card'],
        ['slots', `/service/${serviceId}/slots`, 'button.slot'],
      ];
      for (const [name, path, ready] of routes) {
        const documents: string[] = [];
        page.on('request', (r) => {
          if (r.resourceType() === 'document') documents.push(r.url());
        });
        await page.goto(`${server.origin}${path}`);
        await page.locator(ready).first().waitFor();
        await page.waitForLoadState('networkidle');
        // Live: the route's chunk loaded and its markup hydrated (the router marks it).
        await page.locator('html[data-live]').waitFor({ state: 'attached' });
        expect(await page.evaluate<string>('document.documentElement.lang')).toBe(lang);
        expect(await page.evaluate<string[]>('window.__spinners'), `${name}: spinner`).toEqual([]);
        expect(await page.evaluate<number>('window.__shifts'), `${name}: CLS`).toBeLessThanOrEqual(
          0.02,
        );
        await snap(page, { path: `${ARTIFACTS}/ssr-${name}-360-${lang}.png`, fullPage: true });
        page.removeAllListeners('request');
      }
      expect(messages).toEqual([]);
      await context.close();
    });
  }

  it('turns a hash link into its path without asking the server for its query; links stay in the app', async () => {
    const context = await browser.newContext({ viewport: MOBILE, reducedMotion: 'reduce' });
    const { page, messages } = await watched(context);
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    await page.goto(`${server.origin}/#/organizations?q=bamenda`);
    await page.locator('.org-card', { hasText: orgName }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(
      '/organizations?q=bamenda',
    );
    expect(new URL(page.url()).hash).toBe('');
    // Followed from a page of the app, a hash link changes only the fragment: same result.
    await page.evaluate("location.hash = '#/contact'");
    await page.locator('form').first().waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).hash).toBe('/contact');

    await page.goto(`${server.origin}/#/ticket/QL-7K4M-2QAB-XC9D?k=not-a-real-key-123`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/ticket/QL-7K4M-2QAB-XC9D');
    await page.waitForLoadState('networkidle');
    expect(urls.filter((u) => u.includes('not-a-real-key-123'))).toEqual([]);

    // A click on an in-app link (a plain <a href="/…">) navigates without loading a document.
    await page.goto(`${server.origin}/service/${serviceId}/slots`);
    // Links are the app's once it is live (before, the browser loads their page itself).
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    await page.evaluate('window.__stayed = true');
    await page.locator('nav.breadcrumb a', { hasText: orgName }).click();
    await page.getByText(serviceName).first().waitFor();
    expect(await page.evaluate<boolean>('window.__stayed === true')).toBe(true);
    expect(new URL(page.url()).pathname).toBe(`/${orgId}/services`);
    expect(messages.filter((m) => !m.includes('404'))).toEqual([]);
    await context.close();
  });

  it('holds a tap made before the app is live and replays it once it is; a hash link followed meanwhile hydrates without a mismatch', async () => {
    const context = await browser.newContext({ viewport: MOBILE, reducedMotion: 'reduce' });
    const { page, messages } = await watched(context);
    // The app's JavaScript waits at the door until the test lets it in.
    let open: () => void = () => undefined;
    const door = new Promise<void>((resolve) => {
      open = resolve;
    });
    await page.route('**/assets/**/*.js', async (route) => {
      await door;
      await route.continue();
    });
    await page.goto(`${server.origin}/service/${serviceId}/slots`, { waitUntil: 'commit' });
    const free = page.locator('button.slot[data-state="free"]').first();
    await free.click();
    expect(await free.getAttribute('data-held')).toBe('');
    expect(await page.getByLabel('Username').count()).toBe(0);
    open();
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    // The held tap, replayed: the slot's details form opens.
    await page.getByLabel('Username').waitFor();
    expect(await page.locator('[data-held]').count()).toBe(0);

    // A hash link followed while the app starts (its entry ran, the page's chunk is on its way;
    // only the fragment changes): the app hydrates the page the server sent, then moves to the
    // link's page. Adopting the link before hydrating was a mismatch (React error 418).
    // The entry and what it imports statically are what the build names; route chunks are not.
    const built = readFileSync(join(ROOT, 'apps/web/dist/index.html'), 'utf8');
    const entryFiles = [
      ...built.matchAll(/<meta name="qless-(?:module|preload)" content="([^"]+)"/g),
    ]
      .map((m) => m[1] ?? '')
      .filter(Boolean);
    const entry = entryFiles[0] ?? '';
    if (!entry) throw new Error('no qless-module meta');
    const late = await context.newPage();
    const lateMessages: string[] = [];
    late.on('console', (m) => {
      if (m.type() === 'error') lateMessages.push(m.text());
    });
    late.on('pageerror', (e) => lateMessages.push(e.message));
    let unlock: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      unlock = resolve;
    });
    await late.route('**/assets/**/*.js', async (route) => {
      if (!entryFiles.some((file) => route.request().url().endsWith(file))) await gate;
      await route.continue();
    });
    const entryAsked = late.waitForRequest((r) => r.url().endsWith(entry));
    await late.goto(`${server.origin}/organizations`, { waitUntil: 'commit' });
    await late.locator('.org-card').first().waitFor();
    await entryAsked;
    await late.waitForTimeout(300);
    await late.goto(`${server.origin}/organizations#/service/${serviceId}/slots`, {
      waitUntil: 'commit',
    });
    unlock();
    await late.locator('html[data-live]').waitFor({ state: 'attached' });
    await late.locator('button.slot').first().waitFor();
    expect(new URL(late.url()).pathname).toBe(`/service/${serviceId}/slots`);
    expect({ messages, lateMessages }).toEqual({ messages: [], lateMessages: [] });
    await context.close();
  });

  it("reloads a services page reached through the switcher without a mismatch (the list is the navigation state's)", async () => {
    const context = await browser.newContext({ viewport: MOBILE, reducedMotion: 'reduce' });
    const { page, messages } = await watched(context);
    await page.goto(`${server.origin}/${orgId}/services`);
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    const switcher = page.getByLabel('Organization', { exact: true });
    // The whole list arrives once live.
    await expect.poll(() => switcher.locator('option').count()).toBeGreaterThan(1);
    const other = await switcher
      .locator('option')
      .evaluateAll(
        (options, current) =>
          (options as { value: string }[]).find((o) => o.value !== current)?.value ?? '',
        orgId,
      );
    await switcher.selectOption(other);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/${other}/services`);
    await page.reload();
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    expect(await switcher.locator('option').count()).toBeGreaterThan(1);
    expect(messages).toEqual([]);
    await context.close();
  });
});
