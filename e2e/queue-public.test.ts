import { addDays, dayOfWeek, zonedNow } from '@qless/contract/core';
import type { APIRequestContext, Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookingAccess } from '../apps/api/src/core/access/booking-access';
import {
  JOIN_CODE_SECRET,
  JOIN_CODE_WINDOW_MS,
  joinCodeOf,
} from '../apps/api/src/modules/queue/join-code';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { launch, MOBILE, shotsDir, snap } from './support/browser';
import { confirmedBooking, openDemoService } from './support/demo-queue';
import { type RunningServer, startServer } from './support/server';

/**
 * The queue's public pages against the real server (issue 19), in French at 360 px: a walk-in
 * joins from the poster's page (a wrong phone number said first), sees their place, and when
 * a clerk calls (over the API) the phone says "Allez au Guichet 1" and the hall's board, on
 * its real socket, shows the call. Then a booked customer is checked in at the counter: their
 * ticket page shows their place, and their call, and so does My bookings. The server's clock is a Monday at 09:30 in
 * Douala.
 */
const SCREENS = shotsDir('queue');
const TZ = 'Africa/Douala';
let monday = addDays(zonedNow(TZ, new Date()).date, 2);
while (dayOfWeek(monday) !== 1) monday = addDays(monday, 1);
const START = `${monday}T09:30:00+01:00`;

let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let org: { id: string; name: string };
let service: { id: string; name: string };

beforeAll(async () => {
  tdb = await createTestDatabase('postgres');
  if (!tdb.url) throw new Error('no PostgreSQL url');
  server = await startServer({
    env: { DATABASE_URL: tdb.url, NODE_ENV: 'test', QLESS_FAKE_NOW: START },
  });
  browser = await launch();
  const db = tdb.database.db;
  // An organization open on Mondays at 09:30 with an active service (the demo's are).
  const open = await openDemoService(server.origin, db);
  org = open.org;
  service = { id: open.service.id, name: open.service.name };
  await createUser(db, { email: 'queue-admin@e2e.cm', role: 'org_admin', organizationId: org.id });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
});

async function call<T>(api: APIRequestContext, method: string, path: string, data?: unknown) {
  const res = await api.fetch(`${server.origin}/api/v1${path}`, {
    method,
    // A signed-in write must come from the site (the API checks Origin).
    headers: { origin: server.origin },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/**
 * Four digits that no window near the server's now accepts (this one, the one before, the
 * next): a fixed "wrong" code would be the previous window's once in 10,000 runs.
 */
async function wrongCode(organizationId: string, token: string): Promise<string> {
  const res = await fetch(`${server.origin}/api/v1/board/${token}/join-code`);
  const { changes_at } = (await res.json()) as { changes_at: string };
  const window = Date.parse(changes_at) / JOIN_CODE_WINDOW_MS - 1;
  const { value } = await tdb.database.db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', JOIN_CODE_SECRET)
    .executeTakeFirstOrThrow();
  const taken = [window - 1, window, window + 1].map((w) => joinCodeOf(value, organizationId, w));
  return ['0000', '0001', '0002', '0003'].find((c) => !taken.includes(c)) as string;
}

/** The queue's admin signed in (a browser context of their own), with these queue settings. */
async function signedInAdmin(change: Record<string, unknown>) {
  const staff = await browser.newContext();
  const login = await staff.request.post(`${server.origin}/api/v1/auth/login`, {
    data: { email: 'queue-admin@e2e.cm', password: TEST_PASSWORD },
  });
  expect(login.status()).toBe(200);
  const api = staff.request;
  const { settings } = await call<{ settings: Record<string, unknown> }>(
    api,
    'GET',
    '/queue/settings',
  );
  await call(api, 'PUT', '/queue/settings', { ...settings, ...change });
  return { staff, api };
}

describe('queue public pages, in French at 360 px', () => {
  it('joins from the poster, follows the place, and the call reaches the phone and the board', async () => {
    // The admin turns the join page on, sets up a counter and a board link.
    const { staff, api } = await signedInAdmin({ join_enabled: true });
    const { counter } = await call<{ counter: { counter_id: string } }>(
      api,
      'POST',
      '/queue/counters',
      { name: 'Guichet 1', service_ids: [service.id] },
    );
    await call(api, 'POST', `/queue/counters/${counter.counter_id}/open`);
    const { token } = await call<{ token: string }>(api, 'POST', '/queue/boards', {
      name: 'Hall',
    });

    // The poster's page is server-rendered with its data, in the reader's language; an
    // unknown organization is a 404.
    const html = await (
      await fetch(`${server.origin}/join/${org.id}`, { headers: { 'accept-language': 'fr' } })
    ).text();
    expect(html).toContain('Rejoindre la file');
    expect(html).toContain(org.name);
    expect(html).toContain('id="qless-data"');
    const unknown = await fetch(`${server.origin}/join/00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);

    const hall = await browser.newContext({
      viewport: { width: 1920, height: 1080 },
      locale: 'fr-FR',
    });
    const board = await hall.newPage();
    await board.goto(`${server.origin}/board/${token}`);
    await board.locator('.board[data-board-state="ready"]').waitFor();
    await board.getByRole('button', { name: 'Cliquez pour activer le son' }).click();

    // The walk-in, on a phone in French.
    const phone = await browser.newContext({ viewport: MOBILE, locale: 'fr-FR' });
    // The phone's calendar is the server's day (My bookings shows today's turns only).
    await phone.clock.setFixedTime(new Date(START));
    const page = await phone.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.origin}/join/${org.id}`);
    await page.locator('html[data-live]').waitFor();
    await page.getByRole('heading', { name: 'Rejoindre la file' }).waitFor();
    await page.locator(`.join-service:has(input[value="${service.id}"])`).click();
    await page.getByLabel('Votre nom').fill('Awa Ndongo');
    await page.getByLabel('Téléphone mobile (facultatif)').fill('12345');
    await page.getByRole('button', { name: 'Rejoindre la file' }).click();
    await page
      .getByText('Saisissez un numéro mobile camerounais', { exact: false })
      .first()
      .waitFor();
    await snap(page, { path: `${SCREENS}/join-360-fr.png`, fullPage: true });
    await page.getByLabel('Téléphone mobile (facultatif)').fill('');
    await page.getByRole('button', { name: 'Rejoindre la file' }).click();

    await page.waitForURL(/\/visit\/[^?]+$/);
    const message = page.getByTestId('turn-message');
    await expect.poll(() => message.textContent()).toMatch(/^Vous êtes le 1er/);
    const number = (await page.locator('.turn-card__number').textContent()) ?? '';
    expect(number).toMatch(/^[A-Z]-\d{3}$/);
    // The key left the address, the device kept it: a reload still opens the turn.
    await page.reload();
    await expect.poll(() => message.textContent()).toMatch(/^Vous êtes le 1er/);
    await snap(page, { path: `${SCREENS}/visit-waiting-360-fr.png`, fullPage: true });

    // The clerk calls: the phone and the board say it, pushed.
    await call(api, 'POST', `/queue/counters/${counter.counter_id}/call-next`);
    await expect.poll(() => message.textContent()).toBe('Allez au Guichet\u00a01');
    await snap(page, { path: `${SCREENS}/visit-called-360-fr.png`, fullPage: true });
    const shown = board.getByTestId('board-call');
    await expect.poll(() => shown.textContent()).toContain(number);
    await expect.poll(() => shown.textContent()).toContain('Guichet 1');
    await snap(board, { path: `${SCREENS}/board-real-1920x1080.png`, animations: 'disabled' });

    // A booked customer, checked in at the counter: the ticket page follows their visit.
    const db = tdb.database.db;
    const { id: bookingId, code } = await confirmedBooking(db, {
      organizationId: org.id,
      serviceId: service.id,
      date: monday,
      seat: 101,
      name: 'Paul Booked',
      email: 'paul@example.cm',
      phone: '+237677000101',
    });
    await call(api, 'POST', '/organization/checkins', { code });
    const key = (await BookingAccess.load(db)).keyFor(bookingId);
    await page.goto(`${server.origin}/ticket/${code}?k=${key}`);
    const turn = page.locator('.turn-card');
    await expect
      .poll(() => turn.getByTestId('turn-message').textContent())
      .toMatch(/^Vous êtes le 1er/);
    await call(api, 'POST', `/queue/counters/${counter.counter_id}/start`);
    await call(api, 'POST', `/queue/counters/${counter.counter_id}/call-next`);
    await expect
      .poll(() => turn.getByTestId('turn-message').textContent())
      .toBe('Allez au Guichet\u00a01');
    await snap(turn, { path: `${SCREENS}/ticket-turn-called-360-fr.png` });
    // My bookings, on the device that opened the ticket, shows the same turn.
    await page.goto(`${server.origin}/my-bookings`);
    await expect
      .poll(() => page.locator('.my-booking').getByTestId('turn-message').textContent())
      .toBe('Allez au Guichet\u00a01');
    expect(errors).toEqual([]);
    await Promise.all([staff.close(), hall.close(), phone.close()]);
  });

  it('with the hall code on: the board shows it large, the phone types it to join (decision 125)', async () => {
    const { staff, api } = await signedInAdmin({ join_enabled: true, join_code: true });
    const { token } = await call<{ token: string }>(api, 'POST', '/queue/boards', {
      name: 'Hall code',
    });

    const hall = await browser.newContext({
      viewport: { width: 1920, height: 1080 },
      locale: 'fr-FR',
    });
    const board = await hall.newPage();
    await board.goto(`${server.origin}/board/${token}`);
    const corner = board.getByTestId('board-join-code');
    await corner.waitFor();
    expect(await corner.textContent()).toContain('Scannez l’affiche pour rejoindre la file');
    const digits = board.locator('.board__join-code');
    const code = (await digits.textContent()) ?? '';
    expect(code).toMatch(/^\d{4}$/);
    // Readable across the hall: 10vh type at 1080 px, in the top right corner.
    const box = await digits.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(100);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeGreaterThan(1920 * 0.8);
    expect(box?.y).toBeLessThan(1080 * 0.2);
    await snap(board, {
      path: `${SCREENS}/board-join-code-1920x1080.png`,
      animations: 'disabled',
    });

    const phone = await browser.newContext({ viewport: MOBILE, locale: 'fr-FR' });
    const page = await phone.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.origin}/join/${org.id}`);
    await page.locator('html[data-live]').waitFor();
    await page.locator(`.join-service:has(input[value="${service.id}"])`).click();
    await page.getByLabel('Votre nom').fill('Eko Manga');
    const field = page.getByLabel('Le code affiché sur l’écran de la salle');
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    await field.fill(await wrongCode(org.id, token));
    await page.getByRole('button', { name: 'Rejoindre la file' }).click();
    await page.getByText('Ce n’est pas le code affiché', { exact: false }).first().waitFor();
    await snap(page, { path: `${SCREENS}/join-code-refused-360-fr.png`, fullPage: true });
    await field.fill(code);
    // The network cut as they send it: said in words, nothing typed is lost, and sent again.
    await phone.setOffline(true);
    await page.getByRole('button', { name: 'Rejoindre la file' }).click();
    await page.getByText('Impossible de joindre le serveur', { exact: false }).first().waitFor();
    expect(await field.inputValue()).toBe(code);
    expect(await page.getByLabel('Votre nom').inputValue()).toBe('Eko Manga');
    await snap(page, { path: `${SCREENS}/join-code-offline-360-fr.png`, fullPage: true });
    await phone.setOffline(false);
    await page.getByRole('button', { name: 'Rejoindre la file' }).click();
    await page.waitForURL(/\/visit\/[^?]+$/);
    expect(errors).toEqual([]);
    await Promise.all([staff.close(), hall.close(), phone.close()]);
  });
});
