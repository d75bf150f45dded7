import { zonedNow } from '@qless/contract/core';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { launch, MOBILE, shotsDir, snap } from './support/browser';
import { settled } from './support/counter-clerk';
import { nextWeekdayAtTen } from './support/days';
import { type RunningServer, startServer } from './support/server';

/**
 * A fair order anyone can check (decisions 138, 139), in French at 360 px, against the real
 * server on PostgreSQL with its clock moving (QLESS_FAKE_NOW, then SIGUSR2: 5 minutes a
 * signal): an elderly visitor takes a number at the kiosk (the priority question), walk-ins are
 * added at the counter; the calls follow "1 priority, then 2 others" and the 10-minute ageing
 * ceiling; the counter, done with its own line, helps the longest line it may help; it
 * transfers a visitor to a named counter; a number called out of turn with a reason shows on
 * the board at 1920×1080 and in Insight, per clerk.
 */
const SCREENS = shotsDir('queue-fair');
const ADMIN = 'fair-admin@e2e.cm';
const STEP_MINUTES = 5;

let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let api: APIRequestContext;
let org: { id: string; time_zone: string };
let own: { id: string; name: string }; // Accueil serves it
let other: { id: string; name: string }; // Prêts serves it; Accueil helps it
let day = '';
const contexts: BrowserContext[] = [];

async function call<T>(method: string, path: string, data?: unknown): Promise<T> {
  const res = await api.fetch(`${server.origin}/api/v1${path}`, {
    method,
    headers: { origin: server.origin },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** The server's clock, as the queue reads it. */
const serverTime = async () =>
  Date.parse((await call<{ server_time: string }>('GET', '/queue/today')).server_time);

/**
 * Moves the server's clock on by `steps` × 5 minutes, one signal at a time (two signals sent at
 * once may arrive as one), each seen before the next.
 */
async function passMinutes(steps: number): Promise<void> {
  for (let i = 0; i < steps; i += 1) {
    const before = await serverTime();
    process.kill(server.pid, 'SIGUSR2');
    await expect
      .poll(serverTime, { timeout: 5_000 })
      .toBeGreaterThanOrEqual(before + STEP_MINUTES * 60_000);
  }
}

async function frenchPage(viewport = MOBILE): Promise<Page> {
  const context = await browser.newContext({
    viewport,
    locale: 'fr-FR',
    reducedMotion: 'reduce',
    bypassCSP: true,
  });
  contexts.push(context);
  // The page's timers on a clock the test can move (`settled`: the main button's settle).
  await context.clock.install();
  const login = await context.request.post(`${server.origin}/api/v1/auth/login`, {
    data: { email: ADMIN, password: TEST_PASSWORD },
  });
  expect(login.status()).toBe(200);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return page;
}

const noOverflow = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth <= 360');

beforeAll(async () => {
  tdb = await createTestDatabase('postgres');
  if (!tdb.url) throw new Error('no PostgreSQL url');
  const now = nextWeekdayAtTen();
  server = await startServer({
    env: { DATABASE_URL: tdb.url, NODE_ENV: 'test', QLESS_FAKE_NOW: now.toISOString() },
  });
  browser = await launch();
  const db = tdb.database.db;
  const rows = await db
    .selectFrom('organizations as o')
    .innerJoin('services as s', 's.organization_id', 'o.id')
    .select(['o.id', 'o.time_zone', 's.id as service_id', 's.name', 's.name_fr'])
    .where('s.active', '=', true)
    .orderBy('o.name')
    .orderBy('s.name')
    .execute();
  const byOrg = new Map<string, typeof rows>();
  for (const r of rows) byOrg.set(r.id, [...(byOrg.get(r.id) ?? []), r]);
  const chosen = [...byOrg.values()].find((list) => list.length >= 2);
  const [first, second] = chosen ?? [];
  if (!first || !second) throw new Error('no organization with two services');
  org = { id: first.id, time_zone: first.time_zone };
  own = { id: first.service_id, name: first.name_fr ?? first.name };
  other = { id: second.service_id, name: second.name_fr ?? second.name };
  await db
    .updateTable('organizations')
    .set({ open_days: 127, start_time: '07:00', end_time: '20:00' })
    .where('id', '=', org.id)
    .execute();
  day = zonedNow(org.time_zone, now).date;
  await createUser(db, {
    email: ADMIN,
    role: 'org_admin',
    organizationId: org.id,
    name: 'Clarisse Agent',
  });
  const admin = await browser.newContext();
  contexts.push(admin);
  const login = await admin.request.post(`${server.origin}/api/v1/auth/login`, {
    data: { email: ADMIN, password: TEST_PASSWORD },
  });
  expect(login.status()).toBe(200);
  api = admin.request;
  // The fair order: the elderly and pregnant women first, one for every two others, and
  // nobody waits more than 10 minutes behind later arrivals.
  const { settings } = await call<{ settings: Record<string, unknown> }>('GET', '/queue/settings');
  await call('PUT', '/queue/settings', {
    ...settings,
    priority_categories: ['elderly', 'pregnant'],
    ratio: { priority: 1, others: 2 },
    ageing_ceiling_minutes: 10,
  });
  // Prêts serves the other service (open, though nobody calls there in this test).
  const { counter } = await call<{ counter: { counter_id: string } }>('POST', '/queue/counters', {
    name: 'Prêts',
    service_ids: [other.id],
  });
  await call('POST', `/queue/counters/${counter.counter_id}/open`);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
});

describe('a fair order anyone can check, in French', () => {
  it('kiosk and counter priorities, the ratio and the ceiling as the clock moves, help, a named transfer, a call out of turn on the board and in Insight', async () => {
    const page = await frenchPage();

    // Queue setup: "Accueil" serves the first service and helps the other's line.
    await page.goto(`${server.origin}/organization/queue/setup`);
    const counters = page.locator('section', {
      has: page.getByRole('heading', { name: 'Guichets', exact: true }),
    });
    const add = counters.locator('form').last();
    await add.getByLabel('Nom du guichet').fill('Accueil');
    await add
      .getByRole('group', { name: 'Services qu’il sert' })
      .getByLabel(own.name, { exact: true })
      .check();
    await add
      .getByRole('group', { name: 'Aide aussi ces files' })
      .getByLabel(other.name, { exact: true })
      .check();
    await add.getByRole('button', { name: 'Ajouter le guichet' }).click();
    await counters.getByText('Accueil ajouté.').waitFor();
    await counters.getByText(`aide : ${other.name}`).waitFor();
    expect(await noOverflow(page)).toBe(true);
    await snap(counters, { path: `${SCREENS}/counters-helps-360-fr.png` });

    // A walk-in at 10:00; two in the other service's line.
    await page.goto(`${server.origin}/organization/queue`);
    await page.getByLabel('Votre guichet').selectOption({ label: 'Accueil' });
    await page.getByRole('button', { name: 'Ouvrir', exact: true }).click();
    await expect.poll(() => page.getByTestId('counter-state').textContent()).toBe('Ouvert');
    const walkIn = page.locator('form.queue-walkin');
    const addWalkIn = async (name: string, service: string, category?: string) => {
      await walkIn.getByLabel('Service').selectOption({ label: service });
      await walkIn.getByLabel('Nom').fill(name);
      if (category) {
        await walkIn.getByLabel('Catégorie prioritaire').selectOption({ label: category });
      }
      await walkIn.getByRole('button', { name: 'Ajouter à la file' }).click();
      await walkIn.getByText(new RegExp(`${name} a le numéro [A-Z]-\\d{3}\\.`)).waitFor();
    };
    await addWalkIn('Roger Tôt', own.name);
    await addWalkIn('Luc Prêt', other.name);
    await addWalkIn('Léa Prêt', other.name);
    // Ten minutes pass; then an elderly man takes a number at the kiosk, and more walk-ins.
    await passMinutes(2);
    const { token: kioskToken } = await call<{ token: string }>('POST', '/queue/kiosks', {
      name: 'Entrée',
      paper: '58mm',
    });
    const kioskContext = await browser.newContext({
      viewport: { width: 1080, height: 1920 },
      locale: 'fr-FR',
      hasTouch: true,
      reducedMotion: 'reduce',
    });
    contexts.push(kioskContext);
    await kioskContext.addInitScript(
      "localStorage.setItem('qless.lang', 'fr'); window.print = () => undefined;",
    );
    const kiosk = await kioskContext.newPage();
    await kiosk.goto(`${server.origin}/kiosk/${kioskToken}`);
    const escaped = own.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await kiosk.getByRole('button', { name: new RegExp(escaped) }).tap();
    await kiosk.getByRole('heading', { name: 'Êtes-vous prioritaire ?' }).waitFor();
    await snap(kiosk, { path: `${SCREENS}/kiosk-priority-1080-fr.png` });
    await kiosk.getByRole('button', { name: 'Personne âgée' }).tap();
    await kiosk.getByRole('button', { name: 'Sans téléphone : obtenir mon numéro' }).tap();
    const kioskNumber = (await kiosk.getByTestId('kiosk-number').textContent())?.trim() ?? '';
    expect(kioskNumber).toMatch(/^[A-Z]-\d{3}$/);
    await addWalkIn('Régine Deux', own.name);
    await addWalkIn('Rita Trois', own.name);
    await addWalkIn('Marie Enceinte', own.name, 'Femme enceinte');

    // Roger has waited the ceiling: first, though a priority visitor is due by the ratio;
    // then the kiosk's elderly visitor, two others, the pregnant woman; then the line Accueil
    // helps (Luc before Léa: first come).
    const line = page.getByTestId('queue-line');
    const order = ['Roger Tôt', kioskNumber, 'Régine Deux', 'Rita Trois', 'Marie Enceinte'];
    await expect
      .poll(async () => {
        const text = (await line.textContent()) ?? '';
        const at = [...order, 'Luc Prêt', 'Léa Prêt'].map((n) => text.indexOf(n));
        return at.every((i) => i >= 0) && at.every((i, k) => k === 0 || i > (at[k - 1] ?? 0));
      })
      .toBe(true);
    expect(await noOverflow(page)).toBe(true);
    await snap(page, { path: `${SCREENS}/counter-order-360-fr.png`, fullPage: true });

    const held = page.getByTestId('held-visit');
    const callNext = async () => {
      await page.getByRole('button', { name: 'Appeler le suivant' }).first().click();
      await held.getByText('Appelé').waitFor();
      const text = (await held.textContent()) ?? '';
      await settled(page);
      await held.getByRole('button', { name: 'Commencer' }).click();
      await held.getByText('En cours').waitFor();
      return text;
    };
    const called: string[] = [];
    for (const expected of [...order, 'Luc Prêt']) {
      const text = await callNext();
      called.push(expected && text.includes(expected) ? expected : text);
    }
    expect(called).toEqual([...order, 'Luc Prêt']);

    // Luc is sent to the counter "Prêts" by name: Accueil's next call is Léa, not Luc.
    await held.getByLabel('Transférer vers un autre service ou guichet').selectOption({
      label: 'Prêts',
    });
    await held.getByRole('button', { name: 'Transférer' }).click();
    await page.getByText(/transféré : seul le guichet choisi l’appellera\./).waitFor();
    const today = await call<{
      counters: { name: string; calls_next?: string[] }[];
      visits: { visit_id: string; customer_name: string; state: string }[];
    }>('GET', '/queue/today');
    const luc = today.visits.find((v) => v.customer_name === 'Luc Prêt' && v.state === 'waiting');
    // Accueil's line says where he waits.
    await line.locator('li', { hasText: 'Luc Prêt' }).getByText('envoyé vers Prêts').waitFor();
    // Prêts calls him first (he keeps his place by arrival), then its own line (Léa).
    expect(today.counters.find((c) => c.name === 'Prêts')?.calls_next?.[0]).toBe(luc?.visit_id);
    expect(await callNext()).toContain('Léa Prêt');
    // The destination chosen for Luc is not offered for Léa.
    expect(await held.getByLabel('Transférer vers un autre service ou guichet').inputValue()).toBe(
      '',
    );

    // Two more walk-ins; Zoé, back with her document, is called out of turn.
    await addWalkIn('Yves Attente', own.name);
    await addWalkIn('Zoé Retour', own.name);
    const zoe = (await line.locator('li', { hasText: 'Zoé Retour' }).textContent()) ?? '';
    const zoeNumber = /[A-Z]-\d{3}/.exec(zoe)?.[0] ?? '';
    const jump = page.locator('details.queue-jump');
    await jump.getByText('Appeler un numéro hors tour').click();
    await jump.getByLabel('Numéro').selectOption({ label: `${zoeNumber} · Zoé Retour` });
    await jump.getByLabel('Motif').selectOption({ label: 'Retour avec un document' });
    expect(await noOverflow(page)).toBe(true);
    await snap(page, { path: `${SCREENS}/counter-out-of-turn-360-fr.png`, fullPage: true });
    await jump.getByRole('button', { name: 'Appeler hors tour' }).click();
    await page.getByText(`${zoeNumber} appelé hors tour : le motif est enregistré.`).waitFor();
    await held.getByText('Zoé Retour').waitFor();

    // The board on the wall says it: the number, the counter, "Hors tour".
    const { token: boardToken } = await call<{ token: string }>('POST', '/queue/boards', {
      name: 'Hall',
    });
    const boardContext = await browser.newContext({
      viewport: { width: 1920, height: 1080 },
      locale: 'fr-FR',
      reducedMotion: 'reduce',
    });
    contexts.push(boardContext);
    await boardContext.addInitScript("localStorage.setItem('qless.lang', 'fr');");
    const board = await boardContext.newPage();
    await board.goto(`${server.origin}/board/${boardToken}`);
    const banner = board.getByTestId('board-call');
    await banner.getByText(zoeNumber).waitFor();
    await banner.getByText('Hors tour · Out of turn').waitFor();
    await snap(board, { path: `${SCREENS}/board-out-of-turn-1920.png` });

    // Insight, per clerk: Clarisse finished six visits (Luc was transferred, Zoé is still at the
    // counter) and called one number out of turn, on the record.
    await page.goto(`${server.origin}/organization/insight`);
    await page.getByRole('heading', { level: 1, name: 'Statistiques' }).waitFor();
    await page.locator('input[name="insight-kind"][value="custom"]').check();
    await page.fill('#insight-from', day);
    await page.fill('#insight-to', day);
    const clerks = page.getByTestId('insight-clerks');
    await clerks.waitFor();
    const clerkRow = clerks.locator('tbody tr', { hasText: 'Clarisse Agent' });
    await expect
      .poll(async () => (await clerkRow.locator('td').allTextContents()).map((c) => c.trim()))
      .toEqual(['6', expect.stringMatching(/min$/), '1']);
    const jumps = page.getByTestId('insight-jumps');
    await jumps
      .locator('tbody tr', { hasText: zoeNumber })
      .getByText('Retour avec un document')
      .waitFor();
    await jumps
      .locator('tbody tr', { hasText: zoeNumber })
      .getByText('Clarisse Agent · Accueil')
      .waitFor();
    expect(await noOverflow(page)).toBe(true);
    await snap(page.locator('section[aria-labelledby="insight-clerks"]'), {
      path: `${SCREENS}/insight-clerks-360-fr.png`,
    });
    await snap(page.locator('section[aria-labelledby="insight-jumps"]'), {
      path: `${SCREENS}/insight-jumps-360-fr.png`,
    });
  });
});
