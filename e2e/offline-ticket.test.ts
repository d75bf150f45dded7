import { randomBytes } from 'node:crypto';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, zonedNow } from '@qless/contract/core';
import jsQR from 'jsqr';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, MOBILE } from './support/browser';
import { nextMonday } from './support/days';
import { antenatalClinic } from './support/demo-ticket';
import { ROOT, type RunningServer, startServer } from './support/server';

/**
 * Issue 22, item 3: a ticket that opens offline (decision 113). A phone opens its ticket
 * (the message's link), the service worker installs; with the network off, the ticket page
 * and My bookings open again from the app's shell and the copy saved on the phone, QR
 * included, marked as such; what changed while offline shows once online; a deploy's worker
 * replaces the old one and its files; the organization area's answers are never kept.
 *
 * Bookings are paid through the payment API (simulator) on a server whose clock starts on a
 * Monday at 09:30 in Douala; they are on the Tuesday, well before any cut-off.
 */
const TZ = 'Africa/Douala';
const MONDAY = nextMonday(zonedNow(TZ, new Date()).date);
const TUESDAY = addDays(MONDAY, 1);
const START = new Date(`${MONDAY}T09:30:00+01:00`);
const SERVER_ENV = { NODE_ENV: 'test', QLESS_FAKE_NOW: START.toISOString() };
const SAVED_EN = 'Saved on this phone, may be out of date.';
const SAVED_FR = 'Enregistré sur ce téléphone, peut ne plus être à jour.';
const ADMIN = { email: 'admin@bamenda-regional-hospital.demo', password: 'qless-demo-2026' };

interface Booking {
  id: string;
  key: string;
  code: string;
}

let server: RunningServer;
let browser: Browser;
/** The first server's data, opened again by the "deployed" one. */
const dataDir = mkdtempSync(join(tmpdir(), 'qless-e2e-offline-'));
const deployDir = mkdtempSync(join(tmpdir(), 'qless-e2e-deploy-'));
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];
let first: Booking;
let second: Booking;

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${server.origin}/api/v1${path}`, init);
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A customer books and pays (simulator) a slot on the Tuesday, as the booking page does. */
async function bookAndPay(serviceId: string, slotId: string): Promise<Booking> {
  const { payment } = await api<{
    payment: { payment_id: string; booking_id: string; access_key: string };
  }>('/payment/initiate', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({
      cus_name: 'Ada Nkem',
      cus_email: 'ada@example.cm',
      phone_number: '677123456',
      amount: '2',
      currency: 'XAF',
      description: 'Service Payment',
      reference: `e2e-${randomBytes(6).toString('hex')}`,
      service_id: serviceId,
      slot_id: slotId,
      date: TUESDAY,
    }),
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await api<{ status: string; ticket?: { code?: string } | null }>(
      `/payment/${payment.payment_id}`,
    );
    if (status.status === 'SUCCESSFUL' && status.ticket?.code) {
      return { id: payment.booking_id, key: payment.access_key, code: status.ticket.code };
    }
    if (status.status === 'FAILED' || Date.now() > deadline) {
      throw new Error(`payment ended ${status.status}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

beforeAll(async () => {
  server = await startServer({ env: SERVER_ENV, dataDir });
  browser = await launch();
  const { serviceId } = await antenatalClinic(server.origin);
  const { slots } = await api<{ slots: { id: string }[] }>(`/service/${serviceId}/slots`);
  const [a, b] = slots;
  if (!a || !b) throw new Error('The Antenatal clinic has fewer than two slots');
  first = await bookAndPay(serviceId, a.id);
  second = await bookAndPay(serviceId, b.id);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(deployDir, { recursive: true, force: true });
});

/** A phone of its own (a fresh context: its own storage, caches and service workers). */
async function newPhone(
  lang: 'en' | 'fr' = 'en',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: MOBILE,
    reducedMotion: 'reduce',
    locale: lang === 'fr' ? 'fr-CM' : 'en-GB',
    timezoneId: TZ,
  });
  contexts.push(context);
  if (lang === 'fr') await context.addInitScript("localStorage.setItem('qless.lang', 'fr')");
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  return { context, page };
}

/** The ticket as a message links it: the key in the fragment, never sent to the server. */
const ticketLink = (booking: Booking) =>
  `${server.origin}/#/ticket/${booking.code}?k=${encodeURIComponent(booking.key)}`;

/** The page is controlled by an activated worker (installed after the page's load, when idle). */
async function workerReady(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate<string | null>(
          'navigator.serviceWorker.controller && navigator.serviceWorker.controller.state',
        ),
      { timeout: 30_000 },
    )
    .toBe('activated');
}

/** The registration's workers and their states (installing, waiting, active, controller). */
function workerStates(page: Page): Promise<string> {
  return page.evaluate<string>(`(async () => {
    const r = await navigator.serviceWorker.getRegistration();
    const of = (w) => (w ? w.scriptURL.replace(location.origin, '') + ' ' + w.state : 'none');
    return JSON.stringify({
      installing: of(r && r.installing),
      waiting: of(r && r.waiting),
      active: of(r && r.active),
      controller: of(navigator.serviceWorker.controller),
    });
  })()`);
}

/**
 * The names of the page's caches, read without opening one: `caches.open` creates a cache
 * that is missing, so a poll that opened each name could bring back an old build's cache that
 * the new worker deleted between `keys()` and `open()`, and wait for ever on it (the flake seen
 * twice under a full run's load).
 */
function cacheNames(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('caches.keys()');
}

/**
 * Every cache of the origin: its name and the paths (with query) it holds; only while no
 * worker is replacing another (see above).
 */
function cacheContents(page: Page): Promise<Record<string, string[]>> {
  // A string: the root tsconfig has no DOM typings.
  return page.evaluate<Record<string, string[]>>(`(async () => {
    const out = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = (await cache.keys()).map((r) => { const u = new URL(r.url); return u.pathname + u.search; });
    }
    return out;
  })()`);
}

/** The QR on the page, decoded from the screen as the counter's camera would. */
async function readQr(page: Page, code: string, lang: 'en' | 'fr' = 'en'): Promise<string> {
  const label = lang === 'fr' ? `Code QR du ticket ${code}` : `QR code of ticket ${code}`;
  const image = page.getByRole('img', { name: label });
  await image.waitFor();
  const png = await image.screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const found = jsQR(new Uint8ClampedArray(data), info.width, info.height);
  expect(found?.data).toBe(await image.getAttribute('data-token'));
  return found?.data ?? '';
}

const status = (page: Page) => page.locator('.status-card').getAttribute('data-status');

describe('a ticket that opens offline (issue 22, item 3)', () => {
  /** The first phone: its worker is the one a deploy replaces. */
  let phone: Page;
  let token = '';

  it('opens a ticket, goes offline, reloads and finds the QR; My bookings opens too', async () => {
    const { context, page } = await newPhone();
    phone = page;
    await page.goto(ticketLink(first));
    await page.locator('.status-chip', { hasText: 'Confirmed' }).waitFor();
    token = await readQr(page, first.code);
    expect(await page.getByText(SAVED_EN).count()).toBe(0);
    await workerReady(page);
    // Under the real CSP (script-src 'self' is the worker's source too); never cached as is.
    const script = await context.request.get(`${server.origin}/sw.js`);
    expect(script.headers()['cache-control']).toBe('no-cache');
    expect(script.headers()['service-worker-allowed']).toBe('/');
    const shell = await context.request.get(`${server.origin}/app-shell.html`);
    expect(shell.headers()['cache-control']).toBe('no-cache');

    await context.setOffline(true);
    const reload = await page.reload();
    // The shell came from the worker (a server-rendered page carries its data), the booking
    // from the phone's storage.
    expect(reload?.fromServiceWorker()).toBe(true);
    expect(await page.locator('#qless-data').count()).toBe(0);
    await page.getByRole('heading', { name: 'Your booking', level: 1 }).waitFor();
    await page.getByText(SAVED_EN).waitFor();
    expect(await status(page)).toBe('confirmed');
    expect(await readQr(page, first.code)).toBe(token);
    expect(await page.getByTestId('ticket-code').textContent()).toContain(first.code);

    // My bookings, opened with no network, lists it; its ticket opens from there.
    const list = await page.goto(`${server.origin}/my-bookings`);
    expect(list?.fromServiceWorker()).toBe(true);
    await page.getByRole('heading', { name: 'My bookings', level: 1 }).waitFor();
    await page.getByText(SAVED_EN).waitFor();
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    await page.getByRole('link', { name: /^Open ticket/ }).click();
    await page.getByText(SAVED_EN).waitFor();
    expect(await readQr(page, first.code)).toBe(token);
    // The link's key left the address, offline as online.
    await expect.poll(() => page.url()).toBe(`${server.origin}/ticket/${first.code}`);
    await context.setOffline(false);
  });

  it('shows a ticket cancelled while offline in its new state once online', async () => {
    const { context, page } = await newPhone('fr');
    await page.goto(ticketLink(second));
    await page.locator('.status-chip', { hasText: 'Confirmée' }).waitFor();
    await workerReady(page);

    await context.setOffline(true);
    await page.reload();
    await page.getByText(SAVED_FR).waitFor();
    expect(await status(page)).toBe('confirmed');
    await readQr(page, second.code, 'fr');

    // Meanwhile the booking is cancelled (on another device, with its key).
    await api(`/bookings/${second.id}/cancel`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: server.origin,
        'x-booking-key': second.key,
      },
      body: '{}',
    });
    expect(await status(page)).toBe('confirmed');

    // The network comes back: the page asks again by itself.
    await context.setOffline(false);
    await expect.poll(() => status(page), { timeout: 20_000 }).toBe('cancelled');
    await page.locator('.status-chip', { hasText: 'Annulée par vous' }).waitFor();
    expect(await page.getByText(SAVED_FR).count()).toBe(0);
    expect(await page.getByTestId('ticket-qr').count()).toBe(0);

    // The saved copy was updated: offline again, it says cancelled.
    await context.setOffline(true);
    await page.reload();
    await page.getByText(SAVED_FR).waitFor();
    expect(await status(page)).toBe('cancelled');
    expect(await page.getByTestId('ticket-qr').count()).toBe(0);
    await context.setOffline(false);
  });

  it('never keeps the organization area: neither its pages nor its API answers', async () => {
    const { context, page } = await newPhone();
    await page.goto(ticketLink(first));
    await page.locator('.status-chip', { hasText: 'Confirmed' }).waitFor();
    await workerReady(page);

    // The same phone signs in to the organization area and uses it.
    const login = await context.request.post(`${server.origin}/api/v1/auth/login`, {
      data: ADMIN,
      headers: { origin: server.origin },
    });
    expect(login.status()).toBe(200);
    const area = await page.goto(`${server.origin}/organization`);
    expect(area?.fromServiceWorker()).toBe(false);
    await page.getByText(/Welcome, .* admin/).waitFor();
    const answered = await page.evaluate<number>(
      "fetch('/api/v1/organization/data').then((r) => r.status)",
    );
    expect(answered).toBe(200);
    await page.goto(`${server.origin}/organization/bookings`);
    await page.locator('html[data-live]').waitFor({ state: 'attached' });

    const contents = await cacheContents(page);
    const names = Object.keys(contents);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^qless-offline-[0-9a-f]{16}$/);
    const paths = Object.values(contents).flat();
    expect(paths).toContain('/app-shell.html');
    expect(paths.filter((p) => p.startsWith('/api/'))).toEqual([]);
    expect(paths.filter((p) => p.includes('organization'))).toEqual([]);
    // Only the shell and the app's files: no page of anyone, no answer of any route.
    expect(
      paths.filter(
        (p) => p !== '/app-shell.html' && p !== '/favicon.svg' && !/^\/assets\/[^/?]+\.js$/.test(p),
      ),
    ).toEqual([]);
    // Nor does the phone's storage hold anything of the organization.
    const stored = await page.evaluate<string>('JSON.stringify(Object.assign({}, localStorage))');
    expect(stored).not.toMatch(/organizationData|missing_fields|Welcome/);

    // Offline, the organization area does not open from the worker.
    await context.setOffline(true);
    await expect(page.goto(`${server.origin}/organization`)).rejects.toThrow(
      /INTERNET_DISCONNECTED/,
    );
    await context.setOffline(false);
  });

  it('after a deploy, the next online load runs the new app and the new worker replaces the old', async () => {
    const page = phone;
    const before = await cacheNames(page);
    expect(before).toHaveLength(1);
    const { oldVersion, newVersion, newEntry } = deployCopy(deployDir);
    expect(before[0]).toBe(`qless-offline-${oldVersion}`);
    const { port } = server;
    await server.stop();
    server = await startServer({
      env: { ...SERVER_ENV, WEB_DIST_DIR: join(deployDir, 'dist') },
      dataDir,
      port,
    });

    // Online: the page is the network's, so the new build's, whatever the old worker holds.
    await page.reload();
    // A server-rendered page: the network's, not the shell.
    expect(await page.locator('#qless-data').count()).toBe(1);
    await page.locator('html[data-deploy="2"]').waitFor({ state: 'attached' });
    expect(await page.locator('meta[name="qless-module"]').getAttribute('content')).toBe(newEntry);
    await page.locator('.status-chip', { hasText: 'Confirmed' }).waitFor();
    expect(await page.getByText(SAVED_EN).count()).toBe(0);
    // The new worker installs, takes over and deletes the old build's files.
    await expect
      .poll(() => cacheNames(page), { timeout: 150_000 })
      .toEqual([`qless-offline-${newVersion}`])
      .catch(async (error: unknown) => {
        // Rare under a full run's load: say where the new worker stopped, for the next reader.
        console.error('[service worker states]', await workerStates(page));
        throw error;
      });
    await workerReady(page);

    // Offline, it is the new app that opens, with the saved ticket.
    await phone.context().setOffline(true);
    const reload = await page.reload();
    expect(reload?.fromServiceWorker()).toBe(true);
    await page.locator('html[data-deploy="2"]').waitFor({ state: 'attached' });
    await page.getByText(SAVED_EN).waitFor();
    expect(await readQr(page, first.code)).toBe(token);
    await phone.context().setOffline(false);
    // A server restart (PGlite opened again) on a loaded machine: more than the usual 2 minutes.
  }, 240_000);

  it('raised no page error', () => {
    expect(pageErrors).toEqual([]);
  });
});

/**
 * A new build, as a deploy brings one: a copy of the built app where every script has a new
 * name (as Vite names files by their content) and the entry marks the page when it runs; the
 * worker gets the new names and a new version, as the build would write them.
 */
function deployCopy(dir: string): { oldVersion: string; newVersion: string; newEntry: string } {
  const web = join(ROOT, 'apps/web');
  cpSync(join(web, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(web, 'dist-ssr'), join(dir, 'dist-ssr'), { recursive: true });
  // The server bundle imports React from node_modules, found from its folder upwards.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const dist = join(dir, 'dist');
  const assets = join(dist, 'assets');
  const files = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
  // The precompressed copies would be the old build's: the server sends the files as they are.
  for (const file of files(dist)) if (/\.(br|gz)$/.test(file)) rmSync(file);
  const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
  const renamed = new Map(scripts.map((name) => [name, name.replace(/\.js$/, 'D2.js')]));
  const pattern = new RegExp(
    [...renamed.keys()]
      .sort((a, b) => b.length - a.length)
      .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
  const index = readFileSync(join(dist, 'index.html'), 'utf8');
  const entry = /<meta name="qless-module" content="\/assets\/([^"]+)"/.exec(index)?.[1];
  if (!entry) throw new Error('index.html names no entry');
  const sw = readFileSync(join(dist, 'sw.js'), 'utf8');
  const oldVersion = /version:["'`]([0-9a-f]{16})["'`]/.exec(sw)?.[1];
  if (!oldVersion) throw new Error('sw.js has no version');
  const newVersion = randomBytes(8).toString('hex');
  for (const file of files(dist)) {
    if (!/\.(js|html|json)$/.test(file)) continue;
    let text = readFileSync(file, 'utf8').replace(pattern, (name) => renamed.get(name) ?? name);
    if (file.endsWith('sw.js')) text = text.replaceAll(oldVersion, newVersion);
    if (file.endsWith(`/${entry}`)) text += '\n;document.documentElement.dataset.deploy = "2";\n';
    writeFileSync(file, text);
  }
  for (const [from, to] of renamed) cpSync(join(assets, from), join(assets, to));
  for (const from of renamed.keys()) rmSync(join(assets, from));
  return { oldVersion, newVersion, newEntry: `/assets/${renamed.get(entry)}` };
}
