import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launch, MOBILE, snap } from './support/browser';
import { antenatalClinic, type PaidTicket, paidTicket } from './support/demo-ticket';
import { type RunningServer, startServer } from './support/server';

/**
 * Decision 112 (issue 22): the ticket page a message links to paints its final layout from
 * the server's HTML. The public look-up (place, service in the reader's language, date,
 * time, state) is in the HTML; a key in the link's fragment fills the booking's part in
 * place, with no layout shift.
 */
let server: RunningServer;
let browser: Browser;
let ticket: PaidTicket;
let lookup: {
  organization: string;
  location: string;
  service: string;
  service_fr: string | null;
  date: string;
  time: string;
};

const escapeHtml = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll("'", '&#x27;');

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
  const api = async <T>(path: string) =>
    (await (await fetch(`${server.origin}/api/v1${path}`)).json()) as T;
  const { serviceId } = await antenatalClinic(server.origin);
  ticket = await paidTicket(server.origin, serviceId);
  ({ ticket: lookup } = await api<{ ticket: typeof lookup }>(`/tickets/${ticket.code}`));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const LANGS = [
  { lang: 'en', intl: 'en-CM', state: 'Valid ticket', booked: 'Confirmed' },
  { lang: 'fr', intl: 'fr-CM', state: 'Ticket valide', booked: 'Confirmée' },
] as const;

const longDate = (date: string, intl: string) =>
  new Intl.DateTimeFormat(intl, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));

describe('the ticket page from the server', () => {
  for (const { lang, intl, state } of LANGS) {
    it(`carries the public look-up in ${lang}, and nothing personal`, async () => {
      const res = await fetch(`${server.origin}/ticket/${ticket.code}`, {
        headers: { accept: 'text/html', cookie: `qless.lang=${lang}` },
      });
      expect(res.status).toBe(200);
      const body = await res.text();
      expect(body).toContain(`<html lang="${lang}"`);
      const service = lang === 'fr' ? (lookup.service_fr ?? lookup.service) : lookup.service;
      expect(service).toBe(lang === 'fr' ? 'Consultation prénatale' : 'Antenatal clinic');
      for (const text of [
        state,
        service,
        lookup.organization,
        lookup.location,
        longDate(lookup.date, intl),
        lookup.time,
        ticket.code,
      ]) {
        expect(body, text).toContain(escapeHtml(text));
      }
      // The access form is there at once for a reader without a key (no layout to swap).
      expect(body).toContain('name="last4"');
      for (const secret of ['Ngono Marie', '677123456', ticket.key]) {
        expect(body).not.toContain(secret);
      }
    });
  }
});

/** Records layout shifts and console errors (a hydration mismatch is one). */
async function watched(context: BrowserContext) {
  await context.addInitScript(`
    window.__shifts = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  `);
  const page = await context.newPage();
  const messages: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') messages.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
  return { page, messages };
}

describe('the ticket page at 360 px', () => {
  for (const { lang, state, booked } of LANGS) {
    it(`opens by the message's link without moving anything, in ${lang}`, async () => {
      const context = await browser.newContext({ viewport: MOBILE, reducedMotion: 'reduce' });
      await context.addCookies([{ name: 'qless.lang', value: lang, url: server.origin }]);
      const { page, messages } = await watched(context);
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));

      // Without a key: the server's page is the final one.
      await page.goto(`${server.origin}/ticket/${ticket.code}`);
      const summary = page.locator('.ticket-summary');
      await summary.locator('.status-chip', { hasText: state }).waitFor();
      await page.locator('html[data-live]').waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      const before = await summary.boundingBox();
      expect(await page.locator('input[name="last4"]').isVisible()).toBe(true);
      expect(await page.evaluate<number>('window.__shifts'), 'CLS without key').toBeLessThan(0.02);

      // With the message's link: the booking fills the same card and the space below it.
      // A fresh load, as from an SMS (not a fragment change of the open page).
      await page.goto('about:blank');
      await page.goto(`${server.origin}${ticket.link}`);
      await summary.locator('.status-chip', { hasText: booked }).waitFor();
      await page.locator('[data-testid="ticket-qr"] svg').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await summary.boundingBox()).toEqual(before);
      expect(await page.evaluate<number>('window.__shifts'), 'CLS with key').toBeLessThan(0.02);
      // The key was used from the fragment, then dropped from the address; no request had it.
      expect(new URL(page.url()).hash).toBe('');
      expect(requested.filter((url) => url.includes(ticket.key))).toEqual([]);
      await snap(page, { path: `${ARTIFACTS}/ticket-first-paint-360-${lang}.png` });
      expect(messages).toEqual([]);
      await context.close();
    });
  }
});
