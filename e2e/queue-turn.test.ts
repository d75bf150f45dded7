import { addDays, dayOfWeek, zonedNow } from '@qless/contract/core';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookingAccess } from '../apps/api/src/core/access/booking-access';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { launch, MOBILE, shotsDir, snap } from './support/browser';
import { confirmedBooking, openDemoService } from './support/demo-queue';
import { type RunningServer, startServer } from './support/server';

/**
 * Issue 30 items 3 and 9 on a phone (360×740), in English and French: at a branch where no
 * counter is open yet, a walk-in reads "Counters are not open yet" (no estimate); a walk-in
 * leaves the line from their page; an older `?k=` link still opens the page; a booked
 * customer checked in sees their turn card first on the ticket page (above the fold) and
 * under "Today" in My bookings. The server's clock is a Monday at 09:30 in Douala.
 */
const SHOTS = shotsDir('turn');
const TZ = 'Africa/Douala';
let monday = addDays(zonedNow(TZ, new Date()).date, 2);
while (dayOfWeek(monday) !== 1) monday = addDays(monday, 1);
const START = `${monday}T09:30:00+01:00`;

let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let org: { id: string; name: string };
let service: { id: string };
let api: APIRequestContext;

beforeAll(async () => {
  tdb = await createTestDatabase('postgres');
  if (!tdb.url) throw new Error('no PostgreSQL url');
  server = await startServer({
    env: { DATABASE_URL: tdb.url, NODE_ENV: 'test', QLESS_FAKE_NOW: START },
  });
  browser = await launch();
  const db = tdb.database.db;
  const open = await openDemoService(server.origin, db);
  org = open.org;
  service = { id: open.service.id };
  await createUser(db, { email: 'turn-admin@e2e.cm', role: 'org_admin', organizationId: org.id });
  const staff = await browser.newContext();
  const login = await staff.request.post(`${server.origin}/api/v1/auth/login`, {
    data: { email: 'turn-admin@e2e.cm', password: TEST_PASSWORD },
  });
  expect(login.status()).toBe(200);
  api = staff.request;
  const { settings } = await call<{ settings: Record<string, unknown> }>('GET', '/queue/settings');
  await call('PUT', '/queue/settings', { ...settings, join_enabled: true });
  // The demo may have counters: none open at the start of this morning.
  const { counters } = await call<{ counters: { counter_id: string; state: string }[] }>(
    'GET',
    '/queue/counters',
  );
  for (const c of counters.filter((x) => x.state !== 'closed')) {
    await call('POST', `/queue/counters/${c.counter_id}/close`);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
});

async function call<T>(method: string, path: string, data?: unknown) {
  const res = await api.fetch(`${server.origin}/api/v1${path}`, {
    method,
    headers: { origin: server.origin },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

async function phone(locale: 'en' | 'fr') {
  const context = await browser.newContext({
    viewport: MOBILE,
    locale: locale === 'fr' ? 'fr-FR' : 'en-GB',
  });
  // The phone's calendar is the server's day (My bookings shows today's turns).
  await context.clock.setFixedTime(new Date(START));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

async function join(page: Page, name: string, locale: 'en' | 'fr') {
  await page.goto(`${server.origin}/join/${org.id}`);
  await page.locator('html[data-live]').waitFor();
  await page.locator(`.join-service:has(input[value="${service.id}"])`).click();
  await page.getByLabel(locale === 'fr' ? 'Votre nom' : 'Your name').fill(name);
  await page
    .getByRole('button', { name: locale === 'fr' ? 'Rejoindre la file' : 'Join the queue' })
    .click();
  await page.waitForURL(/\/visit\/[0-9a-f-]{36}$/);
}

/** Whether `selector`'s box ends within the first screen (740 px). */
async function aboveFold(page: Page, selector: string) {
  const box = await page.locator(selector).first().boundingBox();
  expect(box, selector).not.toBeNull();
  return (box?.y ?? 9999) + (box?.height ?? 0) <= MOBILE.height;
}

describe('the customer’s turn at 360×740', () => {
  it('no counter open: "Counters are not open yet"; a walk-in leaves the line; an old ?k= link works', async () => {
    const en = await phone('en');
    // The join page says it before anyone joins.
    await en.page.goto(`${server.origin}/join/${org.id}`);
    await en.page.locator('html[data-live]').waitFor();
    await expect
      .poll(() => en.page.locator(`.join-service:has(input[value="${service.id}"])`).textContent())
      .toContain('Counters are not open yet');

    await join(en.page, 'Awa Ndongo', 'en');
    const message = en.page.getByTestId('turn-message');
    await expect
      .poll(() => message.textContent())
      .toBe('You are 1st\u00a0· Counters are not open yet');
    // The key left the address; the page shows the link to keep, with the key in its fragment.
    expect(en.page.url()).not.toContain('k=');
    const link = (await en.page.getByTestId('visit-link').textContent()) ?? '';
    expect(link).toMatch(/\/visit\/[0-9a-f-]{36}#k=[A-Za-z0-9_-]{22}$/);
    await snap(en.page, { path: `${SHOTS}/visit-no-counter-360-en.png`, fullPage: true });

    const fr = await phone('fr');
    await join(fr.page, 'Bih Nfor', 'fr');
    await expect
      .poll(() => fr.page.getByTestId('turn-message').textContent())
      .toBe('Vous êtes le 2e\u00a0· Les guichets ne sont pas encore ouverts');
    await snap(fr.page, { path: `${SHOTS}/visit-no-counter-360-fr.png`, fullPage: true });

    // An older link with the key in the query still opens the turn, and drops the key.
    const [visitId, key] = [
      link.split('/visit/')[1]?.split('#')[0] ?? '',
      link.split('#k=')[1] ?? '',
    ];
    const old = await phone('en');
    const opened = await old.page.goto(`${server.origin}/visit/${visitId}?k=${key}`);
    // While such an address is shown, no request of the page carries it in a Referer.
    expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
    await expect
      .poll(() => old.page.getByTestId('turn-message').textContent())
      .toBe('You are 1st\u00a0· Counters are not open yet');
    await expect.poll(() => old.page.url()).toBe(`${server.origin}/visit/${visitId}`);

    // The first walk-in leaves the line: two taps, done on the server.
    await en.page.getByRole('button', { name: 'Leave the line' }).click();
    await en.page.getByRole('button', { name: 'Yes, leave' }).click();
    await expect.poll(() => message.textContent()).toBe('This visit is closed.');
    const row = await tdb.database.db
      .selectFrom('visits')
      .select('state')
      .where('id', '=', visitId)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('left');
    const events = await tdb.database.db
      .selectFrom('visit_events')
      .select('kind')
      .where('visit_id', '=', visitId)
      .where('to_state', '=', 'left')
      .execute();
    expect(events.map((e) => e.kind)).toEqual(['left_by_visitor']);
    // The French walk-in moved up, still with no estimate.
    await expect
      .poll(() => fr.page.getByTestId('turn-message').textContent(), { timeout: 30_000 })
      .toBe('Vous êtes le 1er\u00a0· Les guichets ne sont pas encore ouverts');

    // A counter opens: the estimate comes back. Called, served, done: the visit-over page
    // links to the feedback page.
    const { counter } = await call<{ counter: { counter_id: string } }>('POST', '/queue/counters', {
      name: 'Guichet 7',
      service_ids: [service.id],
    });
    await call('POST', `/queue/counters/${counter.counter_id}/open`);
    await expect
      .poll(() => fr.page.getByTestId('turn-message').textContent(), { timeout: 30_000 })
      .toMatch(/^Vous êtes le 1er — environ/);
    await call('POST', `/queue/counters/${counter.counter_id}/call-next`);
    await call('POST', `/queue/counters/${counter.counter_id}/start`);
    await call('POST', `/queue/counters/${counter.counter_id}/done`);
    const feedback = fr.page.getByRole('link', { name: 'Donnez votre avis' });
    await feedback.waitFor({ timeout: 30_000 });
    expect(await feedback.getAttribute('href')).toMatch(/^\/feedback\/[A-Za-z0-9_-]{48}$/);
    expect(await fr.page.getByRole('button', { name: 'Quitter la file' }).count()).toBe(0);
    await snap(fr.page, { path: `${SHOTS}/visit-over-360-fr.png` });
    await feedback.click();
    await fr.page.waitForURL(/\/feedback\//);
    // The counter closes again: the checked-in customers below find none open.
    await call('POST', `/queue/counters/${counter.counter_id}/close`);
    expect([...en.errors, ...fr.errors, ...old.errors]).toEqual([]);
    await Promise.all([en.context.close(), fr.context.close(), old.context.close()]);
  });

  for (const locale of ['en', 'fr'] as const) {
    it(`checked in (${locale}): the turn card first on the ticket page, and under Today in My bookings`, async () => {
      const db = tdb.database.db;
      const booking = await confirmedBooking(db, {
        organizationId: org.id,
        serviceId: service.id,
        date: monday,
        seat: locale === 'en' ? 201 : 202,
        name: 'Paul Booked',
        email: 'paul@example.cm',
        phone: locale === 'en' ? '+237677000201' : '+237677000202',
      });
      const { code } = booking;
      await call('POST', '/organization/checkins', { code });
      const key = (await BookingAccess.load(db)).keyFor(booking.id);
      const p = await phone(locale);
      await p.page.goto(`${server.origin}/ticket/${code}#k=${key}`);
      const turn = p.page.locator('.ticket-page .turn-card');
      await expect
        .poll(() => turn.getByTestId('turn-message').textContent())
        .toContain(
          locale === 'fr' ? 'Les guichets ne sont pas encore ouverts' : 'Counters are not open yet',
        );
      await p.page.mouse.wheel(0, -2000);
      expect(await aboveFold(p.page, '.ticket-page .turn-card')).toBe(true);
      await snap(p.page, { path: `${SHOTS}/ticket-checked-in-360-${locale}.png` });

      await p.page.goto(`${server.origin}/my-bookings`);
      const today = p.page.getByRole('region', { name: locale === 'fr' ? 'Aujourd’hui' : 'Today' });
      await expect.poll(() => today.locator('.turn-card').count()).toBe(1);
      // Today comes first, and the checked-in booking is not under Past and cancelled.
      const titles = await p.page.locator('.my-bookings__title').allTextContents();
      expect(titles[0]).toBe(locale === 'fr' ? 'Aujourd’hui' : 'Today');
      expect(await aboveFold(p.page, '.my-bookings .turn-card')).toBe(true);
      await snap(p.page, { path: `${SHOTS}/my-bookings-360-${locale}.png` });
      expect(p.errors).toEqual([]);
      await p.context.close();
    });
  }
});
