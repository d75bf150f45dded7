import { addDays, dayOfWeek, zonedNow } from '@qless/contract/core';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { launch, MOBILE, seriousViolations, shotsDir, snap } from './support/browser';
import { clerkPage } from './support/counter-clerk';
import { openDemoService } from './support/demo-queue';
import { MM, readPrinted } from './support/print-read';
import { type RunningServer, startServer } from './support/server';

/**
 * Everyone gets a number (decision 135), in French: a kiosk at 1080×1920 issues numbers to a
 * walk-in without a phone and one with (typed on its own pad), prints each (the print's PDF at
 * 58 mm and, from a second kiosk, 80 mm, read back: the number, the short code, the QR), keeps
 * one number when the network blinks during a press, and never keeps a visitor on screen; the
 * counter prints a staff-added walk-in's ticket on A6; the short code opens the turn on a
 * phone. The server's clock is a Monday at 09:30 in Douala.
 */
const SCREENS = shotsDir('kiosk');
const TZ = 'Africa/Douala';
let monday = addDays(zonedNow(TZ, new Date()).date, 2);
while (dayOfWeek(monday) !== 1) monday = addDays(monday, 1);
const START = `${monday}T09:30:00+01:00`;
const ADMIN = 'kiosk-admin@e2e.cm';
const PORTRAIT = { width: 1080, height: 1920 };

let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let org: { id: string; name: string };
let service: { id: string; name: string };
let api: APIRequestContext;
const contexts: BrowserContext[] = [];

async function call<T>(method: string, path: string, data?: unknown) {
  const res = await api.fetch(`${server.origin}/api/v1${path}`, {
    method,
    headers: { origin: server.origin },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

beforeAll(async () => {
  tdb = await createTestDatabase('postgres');
  if (!tdb.url) throw new Error('no PostgreSQL url');
  server = await startServer({
    env: { DATABASE_URL: tdb.url, NODE_ENV: 'test', QLESS_FAKE_NOW: START },
  });
  browser = await launch();
  const open = await openDemoService(server.origin, tdb.database.db);
  org = open.org;
  // As French screens name it.
  service = { id: open.service.id, name: open.service.nameFr };
  await createUser(tdb.database.db, { email: ADMIN, role: 'org_admin', organizationId: org.id });
  const admin = await browser.newContext();
  contexts.push(admin);
  const login = await admin.request.post(`${server.origin}/api/v1/auth/login`, {
    data: { email: ADMIN, password: TEST_PASSWORD },
  });
  expect(login.status()).toBe(200);
  api = admin.request;
  const { counter } = await call<{ counter: { counter_id: string } }>('POST', '/queue/counters', {
    name: 'Guichet 1',
    service_ids: [service.id],
  });
  await call('POST', `/queue/counters/${counter.counter_id}/open`);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
});

/** A kiosk's screen: French, touch, print() counted instead of a dialog. */
async function kioskScreen(token: string, viewport = PORTRAIT): Promise<Page> {
  const context = await browser.newContext({
    viewport,
    locale: 'fr-FR',
    hasTouch: true,
    reducedMotion: 'reduce',
    // axe-core goes in as a script of the test's (the app's CSP allows none).
    bypassCSP: true,
  });
  contexts.push(context);
  await context.addInitScript(
    "localStorage.setItem('qless.lang', 'fr'); window.__prints = 0; window.print = () => { window.__prints += 1; };",
  );
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  await page.goto(`${server.origin}/kiosk/${token}`);
  await page.getByRole('heading', { name: 'Prenez un numéro' }).waitFor();
  return page;
}

const prints = (page: Page) => page.evaluate<number>('window.__prints');

/** Takes a number at the kiosk: the service, then the phone (typed on the pad) or none. */
async function takeNumber(page: Page, phone: string | null): Promise<string> {
  await page.getByRole('button', { name: new RegExp(service.name) }).click();
  await page.getByRole('heading', { name: 'Votre numéro de téléphone (facultatif)' }).waitFor();
  if (phone) {
    for (const digit of phone) {
      await page.locator('.kiosk__pad').getByRole('button', { name: digit, exact: true }).tap();
    }
    await expect.poll(() => page.getByTestId('kiosk-typed').textContent()).toBe('6 77 12 34 56');
    await page.getByRole('button', { name: 'Obtenir mon numéro', exact: true }).tap();
  } else {
    await page.getByRole('button', { name: 'Sans téléphone : obtenir mon numéro' }).tap();
  }
  const number = page.getByTestId('kiosk-number');
  await number.waitFor();
  return (await number.textContent()) ?? '';
}

describe('the kiosk and the printed ticket, in French', () => {
  let followCode = '';
  let firstNumber = '';

  it('a kiosk at 1080×1920 issues a number to a walk-in without a phone and prints it on 58 mm', async () => {
    const { token } = await call<{ token: string }>('POST', '/queue/kiosks', {
      name: 'Entrée',
      paper: '58mm',
    });
    const page = await kioskScreen(token);
    // Big buttons for fingers: every service and the language button are 64 px tall at least.
    const heights = await page.$$eval('.kiosk button', (buttons) =>
      buttons.map((b) => b.getBoundingClientRect().height),
    );
    expect(Math.min(...heights)).toBeGreaterThanOrEqual(64);
    expect(await seriousViolations(page)).toEqual([]);
    await snap(page, { path: `${SCREENS}/kiosk-1080x1920-fr.png` });

    firstNumber = await takeNumber(page, null);
    expect(firstNumber).toMatch(/^[A-Z]-\d{3}$/);
    await page.getByText('Prenez votre ticket ci-dessous.').waitFor();
    await expect.poll(() => prints(page)).toBe(1);
    await snap(page, { path: `${SCREENS}/kiosk-number-1080x1920-fr.png` });

    const printed = await readPrinted(page, `${SCREENS}/slip-58mm.png`);
    expect(printed.pages).toBe(1);
    expect(printed.widthPt).toBeCloseTo(58 * MM, 0);
    expect(printed.text).toContain(firstNumber);
    // The code as the slip shows it; pdftotext may split a letter-spaced word at a narrow
    // glyph ("1", "J"), so the printed text is compared without its spaces.
    const code = (await page.getByTestId('slip-code').textContent()) ?? '';
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(printed.text.replace(/\s+/g, '')).toContain(code);
    followCode = code;
    expect(printed.text).toContain('Suivez votre tour');
    expect(printed.text).toContain('Follow your turn');
    expect(printed.qr).toMatch(new RegExp(`^${server.origin}/visit/[0-9a-f-]+#k=`));

    // The next visitor, with a phone typed on the kiosk's pad: the next number, printed once.
    await page.getByRole('button', { name: /^Terminé/ }).tap();
    await page.getByRole('heading', { name: 'Prenez un numéro' }).waitFor();
    expect(await page.getByTestId('kiosk-number').count()).toBe(0);
    const second = await takeNumber(page, '677123456');
    expect(Number(second.slice(2))).toBe(Number(firstNumber.slice(2)) + 1);
    await expect.poll(() => prints(page)).toBe(2);
    // The same phone again: refused in words, and the kiosk is ready to go on.
    await page.getByRole('button', { name: /^Terminé/ }).tap();
    await page.getByRole('button', { name: new RegExp(service.name) }).click();
    for (const digit of '677123456') {
      await page.locator('.kiosk__pad').getByRole('button', { name: digit, exact: true }).tap();
    }
    await page.getByRole('button', { name: 'Obtenir mon numéro', exact: true }).tap();
    await page.getByText('Ce téléphone a déjà un ticket dans la file aujourd’hui.').waitFor();
  });

  it('keeps one number when the network blinks during a press, and prints on 80 mm', async () => {
    const { token } = await call<{ token: string }>('POST', '/queue/kiosks', {
      name: 'Entrée 2',
      paper: '80mm',
    });
    const page = await kioskScreen(token, { width: 1280, height: 800 });
    // A visitor who taps twice in one instant (before the screen changes) gets one number.
    const start = await call<{ visits: unknown[] }>('GET', '/queue/today');
    await page.getByRole('button', { name: new RegExp(service.name) }).click();
    await page.evaluate(`(() => {
      const button = [...document.querySelectorAll('button')].find((b) =>
        b.textContent.startsWith('Sans téléphone'));
      button.click();
      button.click();
    })()`);
    await page.getByTestId('kiosk-number').waitFor();
    const once = await call<{ visits: unknown[] }>('GET', '/queue/today');
    expect(once.visits.length).toBe(start.visits.length + 1);
    await page.getByRole('button', { name: /^Terminé/ }).tap();

    const before = await call<{ visits: unknown[] }>('GET', '/queue/today');
    await page.getByRole('button', { name: new RegExp(service.name) }).click();
    await page.context().setOffline(true);
    await page.getByRole('button', { name: 'Sans téléphone : obtenir mon numéro' }).tap();
    await page.getByText('Pas de réseau : nouvel essai…').waitFor();
    await page.context().setOffline(false);
    const number = (await page.getByTestId('kiosk-number').textContent()) ?? '';
    expect(number).toMatch(/^[A-Z]-\d{3}$/);
    const after = await call<{ visits: unknown[] }>('GET', '/queue/today');
    expect(after.visits.length).toBe(before.visits.length + 1);
    const printed = await readPrinted(page, `${SCREENS}/slip-80mm.png`);
    expect(printed.widthPt).toBeCloseTo(80 * MM, 0);
    expect(printed.text).toContain(number);
    expect(printed.qr).toMatch(/\/visit\/[0-9a-f-]+#k=/);
    await snap(page, { path: `${SCREENS}/kiosk-number-1280x800-fr.png` });
  });

  it('the counter prints a staff-added walk-in’s ticket on an A6 sheet', async () => {
    await createUser(tdb.database.db, {
      email: 'kiosk-clerk@e2e.cm',
      role: 'staff',
      organizationId: org.id,
    });
    const clerk = await clerkPage(
      browser,
      server.origin,
      { email: 'kiosk-clerk@e2e.cm', password: TEST_PASSWORD },
      'fr',
    );
    contexts.push(clerk.context);
    const { page } = clerk;
    await page.evaluate('window.__prints = 0; window.print = () => { window.__prints += 1; };');
    const walkIn = page.locator('form.queue-walkin');
    await walkIn.getByLabel('Service').selectOption({ label: service.name });
    await walkIn.getByLabel('Nom').fill('Mama Ewane');
    await walkIn.getByRole('button', { name: 'Ajouter à la file' }).click();
    const added = walkIn.getByText(/Mama Ewane a le numéro [A-Z]-\d{3}\./);
    await added.waitFor();
    const number = /([A-Z]-\d{3})/.exec((await added.textContent()) ?? '')?.[1] ?? '';
    await walkIn.getByLabel('Papier de l’imprimante').selectOption('a6');
    await walkIn.getByRole('button', { name: 'Imprimer le ticket' }).click();
    await expect.poll(() => prints(page)).toBe(1);
    const printed = await readPrinted(page, `${SCREENS}/slip-a6.png`);
    expect(printed.widthPt).toBeCloseTo(105 * MM, 0);
    expect(printed.heightPt).toBeCloseTo(148 * MM, 0);
    expect(printed.text).toContain(number);
    // The name stays at the counter: the slip carries none.
    expect(printed.text).not.toContain('Ewane');
    expect(printed.qr).toMatch(/\/visit\/[0-9a-f-]+#k=/);
    await snap(page, { path: `${SCREENS}/counter-print-360-fr.png`, fullPage: true });
  });

  it('a kiosk that cannot reach the server says so, with Retry, and comes back', async () => {
    const { token } = await call<{ token: string }>('POST', '/queue/kiosks', { name: 'Entrée 3' });
    const context = await browser.newContext({ viewport: PORTRAIT, locale: 'fr-FR' });
    contexts.push(context);
    await context.addInitScript("localStorage.setItem('qless.lang', 'fr')");
    await context.route('**/api/v1/kiosk/**', (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${server.origin}/kiosk/${token}`);
    await page.getByText('Pas de réseau : la borne réessaie d’elle-même.').waitFor();
    await snap(page, { path: `${SCREENS}/kiosk-offline-1080x1920-fr.png` });
    await context.unroute('**/api/v1/kiosk/**');
    await page.getByRole('button', { name: 'Réessayer' }).click();
    await page.getByRole('heading', { name: 'Prenez un numéro' }).waitFor();
  });

  it('the short code opens the turn on a phone, typed with a slip of the finger in case', async () => {
    const context = await browser.newContext({ viewport: MOBILE, locale: 'fr-FR' });
    contexts.push(context);
    await context.addInitScript("localStorage.setItem('qless.lang', 'fr')");
    const page = await context.newPage();
    await page.goto(`${server.origin}/f/${followCode.toLowerCase()}`);
    await page.waitForURL(/\/visit\/[0-9a-f-]+/);
    await expect.poll(() => page.locator('.turn-card__number').textContent()).toBe(firstNumber);
    await page.goto(`${server.origin}/f/ZZZZ-ZZZZ`);
    await page.getByText('Aucun ticket d’aujourd’hui ou d’hier n’a ce code.').waitFor();
    await snap(page, { path: `${SCREENS}/follow-unknown-360-fr.png`, fullPage: true });
  });

  it('Queue setup at 360 px makes a kiosk link and the SMS word; the board shows what to text', async () => {
    const admin = await clerkPage(
      browser,
      server.origin,
      { email: ADMIN, password: TEST_PASSWORD },
      'fr',
    );
    contexts.push(admin.context);
    const { page } = admin;
    await page.goto(`${server.origin}/organization/queue/setup`);
    const kiosks = page.getByRole('region', { name: 'Bornes' });
    await kiosks.getByLabel('Nom de la borne').fill('Hall');
    await kiosks.getByLabel('Papier de son imprimante').selectOption('80mm');
    await kiosks.getByRole('button', { name: 'Créer un lien de borne' }).click();
    const link = kiosks.getByTestId('kiosk-link');
    await expect.poll(() => link.inputValue()).toMatch(/\/kiosk\/[A-Za-z0-9_-]{43}$/);
    await kiosks.getByText('Hall · Rouleau 80 mm').waitFor();
    await snap(kiosks, { path: `${SCREENS}/setup-kiosks-360-fr.png` });

    const sms = page.getByRole('region', { name: 'Rejoindre par SMS' });
    await sms.getByLabel('Le mot de l’agence').fill('akwa');
    await sms.getByRole('button', { name: 'Enregistrer le mot' }).click();
    const today = sms.getByTestId('sms-join-today');
    await expect.poll(() => today.textContent()).toMatch(/«\u00a0AKWA \d{3}\u00a0» au 8080/);
    const text = /«\u00a0(AKWA \d{3})\u00a0»/.exec((await today.textContent()) ?? '')?.[1] ?? '';
    await snap(sms, { path: `${SCREENS}/setup-sms-360-fr.png` });

    const { token } = await call<{ token: string }>('POST', '/queue/boards', { name: 'TV' });
    const hall = await browser.newContext({
      viewport: { width: 1920, height: 1080 },
      locale: 'fr-FR',
    });
    contexts.push(hall);
    const board = await hall.newPage();
    await board.goto(`${server.origin}/board/${token}`);
    const shown = board.getByTestId('board-join-sms');
    await expect.poll(() => shown.textContent()).toContain(text);
    await expect.poll(() => shown.textContent()).toContain('Par SMS au 8080');
    await snap(board, { path: `${SCREENS}/board-sms-1920x1080-fr.png` });
  });
});
