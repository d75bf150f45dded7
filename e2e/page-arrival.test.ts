import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, zonedNow } from '@qless/contract/core';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../apps/web/src/i18n/en';
import { fr } from '../apps/web/src/i18n/fr';
import { launch, MOBILE, snap } from './support/browser';
import { nextMonday } from './support/days';
import { type RunningServer, startServer } from './support/server';

/**
 * Issue 18, what a new user tripped on, at 360×740 (web points 1, 2, 5 and 9): a page whose
 * code does not come leaves the layout with a message and Retry; a page opened in the app
 * starts at its top with its heading focused, and Back restores the scroll; a day that is
 * over reads "Terminé", not "Complet", and its word stays in its tile; the reschedule days
 * and the breadcrumb are 44 px targets.
 *
 * The day. The server runs from a Monday at 21:30 in Douala (every slot of the day has
 * started), at least two days ahead of the real date; every browser context runs on the
 * same clock.
 */
const TZ = 'Africa/Douala';
const SHOTS = '/tmp/shots-18';
mkdirSync(SHOTS, { recursive: true });

const MONDAY = nextMonday(zonedNow(TZ, new Date()).date);
const TUESDAY = addDays(MONDAY, 1);
const START = new Date(`${MONDAY}T21:30:00+01:00`);
/** The organization with the longest list of services (the page scrolls at 740 px). */
let org = { id: '', name: '' };
/** Its service with the most slots. */
let serviceId = '';
let server: RunningServer;
let browser: Browser;
let realStart = 0;
const contexts: BrowserContext[] = [];
const serverNow = () => new Date(START.getTime() + (Date.now() - realStart));

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${server.origin}/api/v1${path}`, init);
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  server = await startServer({
    env: { NODE_ENV: 'test', QLESS_FAKE_NOW: START.toISOString() },
    prepare: () => {
      realStart = Date.now();
    },
  });
  browser = await launch();
  const { organizations } = await api<{
    organizations: { organization_id: string; name: string }[];
  }>('/organizations');
  let most = -1;
  for (const o of organizations) {
    const { services } = await api<{ services: { service_id: string }[] }>(
      `/organizations/${o.organization_id}/services`,
    );
    if (services.length > most) {
      most = services.length;
      org = { id: o.organization_id, name: o.name };
    }
  }
  const { services } = await api<{ services: { service_id: string }[] }>(
    `/organizations/${org.id}/services`,
  );
  let slots = -1;
  for (const s of services) {
    const answer = await api<{ slots: unknown[] }>(`/service/${s.service_id}/slots`);
    if (answer.slots.length > slots) {
      slots = answer.slots.length;
      serviceId = s.service_id;
    }
  }
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

async function newPage(lang: 'en' | 'fr' = 'fr'): Promise<Page> {
  const context = await browser.newContext({
    viewport: MOBILE,
    reducedMotion: 'reduce',
    locale: lang === 'fr' ? 'fr-CM' : 'en-GB',
    timezoneId: 'Pacific/Kiritimati',
  });
  contexts.push(context);
  await context.clock.install({ time: serverNow() });
  await context.addInitScript(`localStorage.setItem('qless.lang', '${lang}')`);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return page;
}

/** Opens a path and waits until the app is live (hydrated: taps reach React). */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${server.origin}${path}`);
  await page.locator('html[data-live]').waitFor({ state: 'attached' });
}

const shot = (page: Page, name: string) => snap(page, { path: join(SHOTS, `${name}.png`) });

const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
};

/**
 * A day tile's word: its text, whether the text's box lies within the tile's, and on how
 * many lines (a page script as a string: this file compiles without DOM typings).
 */
const MARK_FITS = `(() => {
  const mark = tile.querySelector('.strip-day__mark');
  const range = document.createRange();
  range.selectNodeContents(mark);
  const text = range.getBoundingClientRect();
  const outer = tile.getBoundingClientRect();
  return {
    word: mark.textContent.trim(),
    inside: text.width === 0 || (text.left >= outer.left - 0.5 && text.right <= outer.right + 0.5),
    lines: range.getClientRects().length,
  };
})()`;

const scrollY = (page: Page) => page.evaluate<number>('scrollY');
const focused = (page: Page) =>
  page.evaluate<string>(
    "(document.activeElement?.tagName ?? '') + ':' + (document.activeElement?.textContent ?? '').trim()",
  );

describe('point 1: a page whose code does not load (issue 18)', () => {
  it('keeps the header with a message and Retry in French; Retry loads the page', async () => {
    const page = await newPage('fr');
    await open(page, '/organizations');
    const card = page.locator('a.org-card').first();
    await card.waitFor();
    // The network goes: no script can be fetched any more (the pages already here stay).
    let aborted = 0;
    const block = /\/assets\/.+\.js(\?.*)?$/;
    await page.route(block, (route) => {
      aborted += 1;
      return route.abort('internetdisconnected');
    });
    await card.click();

    await page.getByRole('heading', { level: 1, name: fr['routeError.title'] }).waitFor();
    expect(aborted).toBeGreaterThan(0);
    expect(await page.locator('.site-header').isVisible()).toBe(true);
    expect(await page.getByText(fr['routeError.body']).isVisible()).toBe(true);
    const retry = page.getByRole('button', { name: fr['common.retry'] });
    expect(await retry.isVisible()).toBe(true);
    expect(await page.locator('footer').isVisible()).toBe(true);
    await shot(page, '1-route-error-360-fr');

    // Still offline: Retry says so and stays (no browser error page).
    await page.route(/\/(?:services|organizations)/, (route) =>
      route.request().resourceType() === 'document' || route.request().resourceType() === 'fetch'
        ? route.abort('internetdisconnected')
        : route.fallback(),
    );
    await retry.click();
    await page.getByText(fr['routeError.stillOffline']).waitFor();
    expect(await page.locator('.site-header').isVisible()).toBe(true);
    await shot(page, '1-route-error-still-offline-360-fr');

    // The network is back: Retry brings the page.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.getByRole('button', { name: fr['common.retry'] }).click();
    await page
      .getByRole('heading', { level: 1, name: fr['services.title'].replace('{org}', org.name) })
      .waitFor();
    expect(await page.locator('.site-header').isVisible()).toBe(true);
    await page.locator('a.service-card').first().waitFor();
    await shot(page, '1-route-error-retried-360-fr');
  });
});

describe('point 2: a page opens at its top (issue 18)', () => {
  it('services → slots at 360×740: scrollY 0, focus on the h1; Back restores the scroll', async () => {
    const page = await newPage('fr');
    await open(page, `/${org.id}/services`);
    const cards = page.locator('a.service-card');
    await cards.first().waitFor();
    const last = cards.last();
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await last.scrollIntoViewIfNeeded();
    const before = await scrollY(page);
    expect(before, 'the services page must scroll at 740 px').toBeGreaterThan(100);
    await last.click();

    const title = page.getByRole('heading', { level: 1, name: fr['slots.title'] });
    await title.waitFor();
    await expect.poll(() => focused(page)).toBe(`H1:${fr['slots.title']}`);
    expect(await scrollY(page)).toBe(0);
    // Still at the top once the slots came in.
    await page.locator('button[data-slot-id]').first().waitFor();
    expect(await scrollY(page)).toBe(0);
    await shot(page, '2-slots-at-top-360-fr');

    await page.goBack();
    await cards.last().waitFor();
    await expect.poll(() => scrollY(page)).toBeGreaterThan(before - 2);
    expect(Math.abs((await scrollY(page)) - before)).toBeLessThanOrEqual(2);
    await shot(page, '2-back-restored-360-fr');

    // Forward again: the slots page where it was (its top).
    await page.goForward();
    await title.waitFor();
    await expect.poll(() => scrollY(page)).toBe(0);
  });

  it('a search typed in place keeps focus in the field and the page where it is', async () => {
    const page = await newPage('en');
    await open(page, '/organizations');
    const search = page.getByRole('searchbox');
    await search.click();
    await search.pressSequentially('dou');
    await expect.poll(() => page.url()).toContain('q=dou');
    expect(await page.evaluate<string>("document.activeElement?.tagName ?? ''")).toBe('INPUT');
  });
});

describe('point 5: over, closed and full (issue 18)', () => {
  for (const lang of ['fr', 'en'] as const) {
    it(`marks today over, not full, and every word fits its tile at 360 px (${lang})`, async () => {
      const page = await newPage(lang);
      const words = lang === 'fr' ? fr : en;
      await open(page, `/service/${serviceId}/slots`);
      const today = page.locator(`.strip-day[data-date="${MONDAY}"]`);
      await expect.poll(() => today.getAttribute('data-state')).toBe('over');
      expect((await today.locator('.strip-day__mark').textContent())?.trim()).toBe(
        words['slots.dayOver'],
      );
      expect(await today.textContent()).not.toContain(words['slots.dayFull']);

      // Every mark shown stays inside its tile, on one line.
      const marks = await page.evaluate<{ word: string; inside: boolean; lines: number }[]>(
        `[...document.querySelectorAll('.strip-day')].map((tile) => ${MARK_FITS})`,
      );
      const shown = marks.filter((m) => m.word !== '');
      expect(shown.length).toBeGreaterThan(0);
      for (const m of shown) {
        expect(m, m.word).toMatchObject({ inside: true });
        expect(m.lines, m.word).toBeLessThanOrEqual(1);
      }
      if (lang === 'fr') await shot(page, '5-day-over-360-fr');
    });
  }

  it('each of the three French words fits a tile with a 2 px border (today)', async () => {
    const page = await newPage('fr');
    await open(page, `/service/${serviceId}/slots`);
    const tile = page.locator(`.strip-day[data-date="${MONDAY}"]`);
    await tile.locator('.strip-day__mark').waitFor();
    // The longest words any tile can show, set in today's tile (2 px border) one by one.
    for (const word of [fr['slots.dayFull'], fr['slots.dayOver'], fr['slots.closedDay']]) {
      const fit = await page.evaluate<{ word: string; inside: boolean; lines: number }>(`(() => {
        const tile = document.querySelector('.strip-day[data-date="${MONDAY}"]');
        tile.querySelector('.strip-day__mark').textContent = ${JSON.stringify(word)};
        return ((tile) => ${MARK_FITS})(tile);
      })()`);
      expect(fit, word).toMatchObject({ word, inside: true, lines: 1 });
    }
  });
});

describe('point 9: 44 px targets at 360 px (issue 18)', () => {
  it('the breadcrumb links of the slots page are 44 px tall', async () => {
    const page = await newPage('fr');
    await open(page, `/service/${serviceId}/slots`);
    const links = page.locator('.breadcrumb a');
    await links.first().waitFor();
    expect(await links.count()).toBe(2);
    for (const link of await links.all()) {
      const b = await box(link);
      expect(b.height).toBeGreaterThanOrEqual(44);
      expect(b.width).toBeGreaterThanOrEqual(44);
    }
  });

  it('the reschedule day tiles and their arrows are 44 px wide and tall', async () => {
    // A paid booking for tomorrow, made through the API (the simulator approves 677… at once).
    const { slots } = await api<{ slots: { id: string }[] }>(`/service/${serviceId}/slots`);
    const { payment } = await api<{ payment: { payment_id: string; access_key: string } }>(
      '/payment/initiate',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.origin },
        body: JSON.stringify({
          cus_name: 'Ada Nkem',
          cus_email: 'ada@example.cm',
          phone_number: '677123456',
          amount: 2,
          currency: 'XAF',
          description: 'Service Payment',
          reference: crypto.randomUUID(),
          service_id: serviceId,
          slot_id: slots[0]?.id,
          date: TUESDAY,
        }),
      },
    );
    let code = '';
    await expect
      .poll(
        async () => {
          const status = await api<{ status: string; ticket: { code: string } | null }>(
            `/payment/${payment.payment_id}`,
          );
          code = status.ticket?.code ?? '';
          return status.status;
        },
        { timeout: 20_000 },
      )
      .toBe('SUCCESSFUL');

    const page = await newPage('fr');
    await open(page, `/ticket/${code}?k=${encodeURIComponent(payment.access_key)}`);
    await page.getByRole('button', { name: fr['ticketPage.reschedule'] }).click();
    await page.getByRole('heading', { name: fr['ticketPage.picker.title'] }).waitFor();
    const chips = page.locator('.day-chip');
    // The chips are drawn at once; their notes once the days' slots arrive (data-free).
    await page.locator(`.day-chip[data-date="${MONDAY}"][data-free]`).waitFor();
    expect(await chips.count()).toBe(7);
    for (const chip of await chips.all()) {
      const b = await box(chip);
      expect(b.width, (await chip.getAttribute('data-date')) ?? '').toBeGreaterThanOrEqual(44);
      expect(b.height).toBeGreaterThanOrEqual(44);
    }
    for (const arrow of await page.locator('.reschedule__nav').all()) {
      const b = await box(arrow);
      expect(b.width).toBeGreaterThanOrEqual(44);
      expect(b.height).toBeGreaterThanOrEqual(44);
    }
    // Today (every slot started) reads "terminé" in the picker too, not "complet".
    expect(
      (await page.locator(`.day-chip[data-date="${MONDAY}"]`).textContent())?.trim(),
    ).toContain(fr['ticketPage.picker.over']);
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await snap(page.locator('.reschedule'), { path: join(SHOTS, '9-reschedule-360-fr.png') });
  });
});
