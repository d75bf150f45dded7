import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../apps/web/src/i18n/en';
import { fr } from '../apps/web/src/i18n/fr';
import { ARTIFACTS, DESKTOP, launch, MOBILE, seriousViolations, snap } from './support/browser';
import { type RunningServer, startServer } from './support/server';

/**
 * The catalogue on a phone (issue 10): the day strip, search kept in the address, honest
 * failures and not-found pages, and the French booking path with no English left over.
 *
 * The day. The server runs from Monday 30 November 2026, 08:15 in Douala (QLESS_FAKE_NOW),
 * so today's week spans two months; every browser context runs on the same clock, in a
 * zone far from Douala (UTC+14), so the view must use the organization's time.
 */
const START = new Date('2026-11-30T08:15:00+01:00');
const TODAY = '2026-11-30';
const HORIZON_DAYS = 60;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const CIVIL_REGISTRY = "Centre d'État Civil de Douala 1er – Bonanjo";
const ADMIN = { email: 'admin@etat-civil-douala-1er-bonanjo.demo', password: 'qless-demo-2026' };

let server: RunningServer;
let browser: Browser;
let realStart = 0;
let orgId = '';
/** Certification of copies: three customers per slot. */
let serviceId = '';
let bookableUntil = '';
const contexts: BrowserContext[] = [];

const serverNow = () => new Date(START.getTime() + (Date.now() - realStart));
const api = (path: string) => `${server.origin}/api/v1${path}`;
/** Thin and no-break spaces (Intl, French typography) read as plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u2009\u202f]/g, ' ');

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(api(path));
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  server = await startServer({
    env: {
      NODE_ENV: 'test',
      QLESS_FAKE_NOW: START.toISOString(),
      BOOKING_HORIZON_DAYS: String(HORIZON_DAYS),
    },
    prepare: () => {
      realStart = Date.now();
    },
  });
  browser = await launch();
  const found = await getJson<{ organizations: { organization_id: string; name: string }[] }>(
    `/organizations?q=${encodeURIComponent('état civil douala')}`,
  );
  orgId = found.organizations.find((o) => o.name === CIVIL_REGISTRY)?.organization_id ?? '';
  const { services } = await getJson<{
    services: { service_id: string; service_name: string; capacity: number }[];
  }>(`/organizations/${orgId}/services`);
  const copies = services.find((s) => s.service_name === 'Certification of copies');
  if (!copies || copies.capacity < 2) throw new Error('demo data: no service with capacity > 1');
  serviceId = copies.service_id;
  ({ bookable_until: bookableUntil } = await getJson<{ bookable_until: string }>(
    `/service/${serviceId}/slots`,
  ));

  // The organization closes on Wednesday 2 December (signed in as its demo admin) ...
  const login = await fetch(api('/auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify(ADMIN),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const closure = await fetch(api('/organization/closures'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin, cookie },
    body: JSON.stringify({ date: '2026-12-02', reason: 'Fête locale' }),
  });
  expect(closure.status, await closure.text()).toBe(200);
  // ... and someone holds one seat of tomorrow's first slot (a number that never settles).
  const { slots } = await getJson<{ slots: { id: string }[] }>(`/service/${serviceId}/slots`);
  const hold = await fetch(api('/payment/initiate'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({
      cus_name: 'Seat Holder',
      cus_email: 'holder@example.cm',
      phone_number: '677000999',
      amount: 2,
      currency: 'XAF',
      description: 'Service Payment',
      reference: crypto.randomUUID(),
      service_id: serviceId,
      slot_id: slots[0]?.id,
      date: '2026-12-01',
    }),
  });
  expect(hold.status, await hold.text()).toBe(201);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

async function newPage(
  lang: 'en' | 'fr' = 'en',
  viewport: { width: number; height: number } = MOBILE,
): Promise<Page> {
  const context = await browser.newContext({
    viewport,
    reducedMotion: 'reduce',
    locale: lang === 'fr' ? 'fr-FR' : 'en-GB',
    timezoneId: 'Pacific/Kiritimati',
    // The API's CSP (script-src 'self') would block injecting axe-core.
    bypassCSP: true,
  });
  contexts.push(context);
  await context.clock.install({ time: serverNow() });
  await context.addInitScript(`localStorage.setItem('qless.lang', '${lang}')`);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return page;
}

const go = (page: Page, path: string) => page.goto(`${server.origin}/#${path}`);
/** The page's address as the app keeps it: path and query (the hash link became a path). */
const addressOf = (page: Page) => {
  const url = new URL(page.url());
  return decodeURIComponent(`${url.hash}${url.pathname}${url.search}`);
};

/** A screenshot of the whole page at 360 px, from the top; nothing scrolls sideways. */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  if (fullPage) await page.evaluate('window.scrollTo(0, 0)');
  await snap(page, { path: join(ARTIFACTS, `catalogue-${name}.png`), fullPage });
  const overflow = await page.evaluate<number>(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
}

describe('the week view on a phone (360 × 740)', () => {
  it('starts the day strip with today, never offers a day past the horizon, marks closed days', async () => {
    const page = await newPage();
    await go(page, `/service/${serviceId}/slots`);
    const days = page.locator('.strip-day');
    await days.first().waitFor();
    const next = page.getByRole('button', { name: 'Next week' });
    const previous = page.getByRole('button', { name: 'Previous week' });

    // Today first and chosen; no past day; the title names both months of the week.
    expect(await days.first().getAttribute('data-date')).toBe(TODAY);
    await expect.poll(() => days.first().getAttribute('aria-pressed')).toBe('true');
    expect(await previous.isDisabled()).toBe(true);
    expect(plain((await page.locator('.week__title').textContent()) ?? '')).toBe(
      'November – December 2026',
    );
    // The closure is marked and cannot be chosen.
    const closed = page.locator('.strip-day[data-date="2026-12-02"]');
    await expect.poll(() => closed.getAttribute('data-state')).toBe('closed');
    expect(await closed.isDisabled()).toBe(true);
    expect(await closed.textContent()).toContain('Closed');
    // Times are Douala's, whatever the browser's zone: the first free one today is after 08:15.
    const firstToday = (await page.locator('.strip__day button.slot').first().textContent()) ?? '';
    expect(firstToday.slice(0, 5)).toBe('08:20');
    await shot(page, 'slots-strip-360-en');

    // Tomorrow: one seat of the first slot is held, so two of three are left.
    await page.locator('.strip-day[data-date="2026-12-01"]').click();
    const held = page.locator('.strip__day[data-date="2026-12-01"] button.slot').first();
    await expect.poll(() => held.locator('.slot__seats').textContent()).toBe('2 left');
    expect(await held.locator('.slot__time').textContent()).toBe('07:30');
    const described = await held.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toMatch(
      /^on Tuesday,? 1 December, 2 seats left$/,
    );
    // Booked-out slots of the demo data are there, greyed, not free.
    expect(await page.locator('.strip__day button.slot[data-state="taken"]').count()).toBe(2);
    await shot(page, 'slots-strip-seats-360-en');
    // The strip, its marks and the seats left read well to assistive technology too.
    expect(await seriousViolations(page)).toEqual([]);

    // Next until it stops: every day offered lies between today and the horizon.
    const seen: string[] = [];
    let presses = 0;
    for (;;) {
      await expect.poll(() => days.first().getAttribute('data-date')).not.toBe(seen.at(-1));
      seen.push(
        ...(await days.evaluateAll((els) => els.map((e) => e.getAttribute('data-date') ?? ''))),
      );
      if (await next.isDisabled()) break;
      await next.click();
      presses += 1;
      expect(presses, 'Next never stops').toBeLessThan(20);
    }
    expect(bookableUntil).toBe('2027-01-29');
    expect(seen.at(-1)).toBe(bookableUntil);
    expect(seen.every((d) => d >= TODAY && d <= bookableUntil)).toBe(true);
    expect(new Set(seen).size).toBe(HORIZON_DAYS + 1);
    expect(presses).toBe(8);
    // The last day can be booked; nothing after it exists on the page.
    await page.locator(`.strip-day[data-date="${bookableUntil}"]`).click();
    await page
      .locator(`.strip__day[data-date="${bookableUntil}"] button.slot[data-state="free"]`)
      .first()
      .waitFor();
    await shot(page, 'slots-strip-last-360-en');
  });

  it('keeps the week grid on a wide screen, stopping Next week at the horizon', async () => {
    const page = await newPage('en', DESKTOP);
    await go(page, `/service/${serviceId}/slots`);
    await page.locator('li.day').first().waitFor();
    const next = page.getByRole('button', { name: 'Next week' });
    // The week starts on Monday (issue 30): today, Monday 30 November, comes first.
    expect(await page.locator('li.day').first().getAttribute('data-date')).toBe('2026-11-30');
    expect(await page.locator('li.day[data-date="2026-11-29"]').count()).toBe(0);
    // Today's past slots (07:30 at 08:15) are shown, never bookable.
    const first = page.locator('li.day[data-date="2026-11-30"] button.slot').first();
    expect(await first.getAttribute('data-state')).toBe('past');
    let presses = 0;
    while (!(await next.isDisabled())) {
      await next.click();
      presses += 1;
      expect(presses).toBeLessThan(20);
    }
    expect(presses).toBe(8);
    // The last week holds the horizon; the days after it cannot be booked.
    await page
      .locator(`li.day[data-date="${bookableUntil}"] button.slot[data-state="free"]`)
      .first()
      .waitFor();
    expect(
      await page.locator('li.day[data-date="2027-01-30"] button.slot[data-state="free"]').count(),
    ).toBe(0);
    expect(await page.locator('li.day[data-date="2027-01-30"]').getAttribute('data-state')).toBe(
      'beyond',
    );
    await snap(page, {
      path: join(ARTIFACTS, 'catalogue-slots-grid-last-1280-en.png'),
      fullPage: true,
    });
  });
});

describe('search kept in the address', () => {
  it('"etat" finds "État civil", and Back brings the search and the page back', async () => {
    const page = await newPage();
    await go(page, '/organizations');
    const names = page.locator('.org-card .org-card__name');
    await names.first().waitFor();
    await page.getByPlaceholder('Search organization...').fill('etat');
    await expect.poll(() => addressOf(page)).toBe('/organizations?q=etat');
    await expect
      .poll(() => names.allTextContents())
      .toEqual([CIVIL_REGISTRY, "Centre d'État Civil de Yaoundé 4e – Ekounou"]);
    await shot(page, 'organizations-search-360-en');
    await names.first().click();
    await page.getByRole('heading', { name: `${CIVIL_REGISTRY} Services` }).waitFor();
    await page.goBack();
    await expect.poll(() => names.count()).toBe(2);
    expect(await page.getByPlaceholder('Search organization...').inputValue()).toBe('etat');

    // Page 2 of the whole list, then an organization there, then Back: still page 2.
    await page.getByPlaceholder('Search organization...').fill('');
    await expect.poll(() => addressOf(page)).toBe('/organizations');
    const status = page.locator('.pagination__status');
    await expect.poll(() => status.textContent()).toBe('Page 1 of 2');
    // Next is at the bottom; the reader lands back at the top of the list.
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect.poll(() => status.textContent()).toBe('Page 2 of 2');
    expect(addressOf(page)).toBe('/organizations?page=2');
    await expect
      .poll(() => page.evaluate<string | undefined>('document.activeElement?.textContent'))
      .toBe('Featured Organizations');
    const top = await page.locator('.org-list__title').boundingBox();
    expect(top && top.y >= 0 && top.y < 200).toBe(true);
    await shot(page, 'organizations-page2-360-en', false);
    const onPage2 = await names.allTextContents();
    await names.first().click();
    await page.locator('.service-card').first().waitFor();
    await page.goBack();
    await expect.poll(() => status.textContent()).toBe('Page 2 of 2');
    expect(await names.allTextContents()).toEqual(onPage2);

    // A shared link opens the same search, box filled: "yaounde" finds Yaoundé, a category its kind.
    const shared = await newPage();
    await go(shared, '/organizations?q=yaounde');
    await shared.locator('.org-card').first().waitFor();
    expect(await shared.getByPlaceholder('Search organization...').inputValue()).toBe('yaounde');
    for (const location of await shared.locator('.org-card__location').allTextContents()) {
      expect(location).toContain('Yaoundé');
    }
    await go(shared, '/organizations?q=banque');
    await expect
      .poll(() => shared.locator('.org-card .org-card__name').allTextContents())
      .toContain('Highlands Savings Bank – Commercial Avenue Branch');
  });
});

describe('honest states', () => {
  it('shows a not-found page for unknown organization and service ids, with the way back', async () => {
    const page = await newPage();
    await go(page, `/${UNKNOWN_ID}/services`);
    await page.getByRole('heading', { name: 'Organization not found' }).waitFor();
    expect(await page.getByText('No services found.').count()).toBe(0);
    await shot(page, 'not-found-organization-360-en');
    await go(page, '/not-a-uuid/services');
    await page.getByRole('heading', { name: 'Organization not found' }).waitFor();
    await go(page, `/service/${UNKNOWN_ID}/slots`);
    await page.getByRole('heading', { name: 'Service not found' }).waitFor();
    await shot(page, 'not-found-service-360-en');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'See the organizations' }).click();
    await page.getByRole('heading', { name: 'Featured Organizations' }).waitFor();
  });

  it('says a failed load failed, with Retry — never "no time slots", never a taken slot as free', async () => {
    const page = await newPage();
    // The network fails for the slots (the browser's edge of the world).
    await page.route('**/api/v1/service/*/slots', (route) => route.abort('failed'));
    await go(page, `/service/${serviceId}/slots`);
    await page.getByText('We could not load the times of this service.').waitFor();
    expect(await page.getByText('This service has no time slots yet.').count()).toBe(0);
    await shot(page, 'slots-failed-360-en');
    await page.unroute('**/api/v1/service/*/slots');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.locator('.strip-day').first().waitFor();

    // Now the taken slots fail: nothing can be booked until they are known.
    await page.route('**/api/v1/service/*/bookings?*', (route) => route.abort('failed'));
    await page.locator('.strip-day[data-date="2026-12-01"]').click();
    await page.getByRole('button', { name: 'Next week' }).click();
    await page.getByText('We could not check which times are still free').waitFor();
    const slots = page.locator('.strip__day button.slot');
    await slots.first().waitFor();
    expect(await page.locator('button.slot[data-state="free"]').count()).toBe(0);
    expect(await slots.first().isDisabled()).toBe(true);
    await shot(page, 'slots-taken-failed-360-en');
    expect(await seriousViolations(page)).toEqual([]);
    await page.unroute('**/api/v1/service/*/bookings?*');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.locator('button.slot[data-state="free"]').first().waitFor();

    // An organization that cannot be loaded is not "not found": Retry, then its services.
    await page.route(`**/api/v1/organizations/${orgId}`, (route) => route.abort('failed'));
    await go(page, `/${orgId}/services`);
    await page.getByText('We could not load this organization.').waitFor();
    expect(await page.getByRole('heading', { name: 'Organization not found' }).count()).toBe(0);
    await page.unroute(`**/api/v1/organizations/${orgId}`);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: `${CIVIL_REGISTRY} Services` }).waitFor();
  });
});

const frenchTexts = Object.values(fr).map(plain);

/**
 * English texts of the catalogue (en.ts) shown on a French page. Only fragments long enough
 * to mean something (8 characters), and none that French writes the same way somewhere
 * ("Services", "Description": words both languages share).
 */
function englishLeftovers(text: string): string[] {
  const shown = plain(text);
  const found: string[] = [];
  for (const key of Object.keys(en) as (keyof typeof en)[]) {
    for (const part of plain(en[key]).split(/\{\w+\}/)) {
      const fragment = part.trim();
      if (fragment.length < 8) continue;
      if (frenchTexts.some((french) => french.includes(fragment))) continue;
      if (shown.includes(fragment)) found.push(`${key}: "${fragment}"`);
    }
  }
  return found;
}

describe('French, as Cameroon reads it', () => {
  it('walks the booking path up to the details in French: FCFA, and no English left over', async () => {
    const page = await newPage('fr');
    const check = async (name: string, scope = 'body') => {
      await page.waitForLoadState('networkidle');
      // The visible text, as a reader sees it (hidden slides and templates left out).
      const text = await page.locator(scope).first().innerText();
      expect(englishLeftovers(text), name).toEqual([]);
      expect(text, name).not.toContain('XAF');
      expect(text, name).not.toContain('Africa/Douala');
      await shot(page, `${name}-360-fr`);
      return plain(text);
    };

    await go(page, '/');
    await page
      .getByRole('heading', { name: 'Réservez votre place en quelques secondes.' })
      .waitFor();
    expect(await check('landing')).toContain('2 FCFA');
    await page.getByRole('link', { name: 'Voir les organisations', exact: true }).first().click();
    await page.locator('.org-card').first().waitFor();
    await page.getByPlaceholder('Rechercher une organisation...').fill('etat civil douala');
    await expect.poll(() => page.locator('.org-card').count()).toBe(1);
    await check('organizations');
    await page.locator('.org-card').first().click();
    await page.getByRole('heading', { name: `Services de ${CIVIL_REGISTRY}` }).waitFor();
    await page.getByText('Certification de copies').waitFor();
    const services = await check('services');
    expect(services).toContain('Durée : 10 minutes');
    await page.getByPlaceholder('Rechercher un service...').fill('certification');
    await expect.poll(() => page.locator('.service-card').count()).toBe(1);
    await page.locator('.service-card').first().click();

    await page.getByRole('heading', { name: 'Prendre un rendez-vous' }).waitFor();
    await page.locator('.strip__day button.slot[data-state="free"]').first().waitFor();
    const slots = await check('slots');
    expect(slots).toContain('Certification de copies');
    expect(slots).toContain('heure de Douala (UTC+1)');
    expect(slots).toContain('Horaires locaux de');
    expect(plain((await page.locator('.week__title').textContent()) ?? '')).toBe(
      'novembre – décembre 2026',
    );
    expect(await page.getByRole('navigation', { name: "Fil d'Ariane" }).count()).toBe(1);
    expect(slots.toLowerCase()).toContain('lundi 30 novembre');

    await page.locator('.strip__day button.slot[data-state="free"]').first().click();
    await page.getByText('Remplissez vos informations pour confirmer votre créneau').waitFor();
    const details = await check('details', 'dialog[open]');
    expect(details).toContain('FCFA');
    expect(details).toContain('Certification de copies');
    await page.getByLabel('Nom', { exact: true }).waitFor();
    expect(details).not.toContain("Nom d'utilisateur");
  });
});
