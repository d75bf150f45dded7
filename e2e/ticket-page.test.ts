import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, zonedNow } from '@qless/contract/core';
import jsQR from 'jsqr';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launch, MOBILE, seriousViolations, snap } from './support/browser';
import { nextMonday } from './support/days';
import { antenatalClinic } from './support/demo-ticket';
import { type RunningServer, startServer } from './support/server';

/**
 * Issue 10, "My booking" on a phone (360×740): book and pay through the UI, find the
 * booking in "My bookings", open its ticket page, download the PDF and the .ics, move it to
 * another slot, see both slots in the week view, reach it on another device with the code
 * and the phone's last four digits, cancel it and see the slot free again.
 *
 * The day. The server runs on a clock that starts on a Monday at 09:30 in Douala (at least
 * two days ahead, so the fake "now" is later than the real one) and every browser context
 * gets the same clock: the booking is on Tuesday and moves to Wednesday, both well before
 * the cut-off and in the week the slots page opens on. The browser's own zone is UTC+14,
 * so a time shown in anything but Douala's zone would be off by 13 hours.
 */
const TZ = 'Africa/Douala';
const BROWSER_ZONE = 'Pacific/Kiritimati';
const SHOTS = '/tmp/shots-ticket';
mkdirSync(SHOTS, { recursive: true });

const MONDAY = nextMonday(zonedNow(TZ, new Date()).date);
const TUESDAY = addDays(MONDAY, 1);
const WEDNESDAY = addDays(MONDAY, 2);
/** Douala is UTC+1 all year (no summer time). */
const START = new Date(`${MONDAY}T09:30:00+01:00`);
const PHONE = '677 123 456';
const LAST4 = PHONE.replace(/\D/g, '').slice(-4);

let server: RunningServer;
let browser: Browser;
let realStart = 0;
let slotsUrl = '';
const contexts: BrowserContext[] = [];
const serverNow = () => new Date(START.getTime() + (Date.now() - realStart));

beforeAll(async () => {
  server = await startServer({
    env: { NODE_ENV: 'test', QLESS_FAKE_NOW: START.toISOString() },
    prepare: () => {
      realStart = Date.now();
    },
  });
  browser = await launch();
  const { serviceId } = await antenatalClinic(server.origin);
  slotsUrl = `${server.origin}/#/service/${serviceId}/slots`;
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

/**
 * A fresh browser context: a device of its own. `axe`: the app's CSP (script-src 'self') is
 * bypassed so axe-core can be injected; the phone that books and downloads runs under it.
 */
async function newPage(lang: 'en' | 'fr' = 'en', axe = false): Promise<Page> {
  const context = await browser.newContext({
    bypassCSP: axe,
    viewport: MOBILE,
    acceptDownloads: true,
    reducedMotion: 'reduce',
    locale: lang === 'fr' ? 'fr-CM' : 'en-GB',
    timezoneId: BROWSER_ZONE,
  });
  contexts.push(context);
  await context.clock.install({ time: serverNow() });
  if (lang === 'fr') await context.addInitScript("localStorage.setItem('qless.lang', 'fr')");
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return page;
}

/** A whole-page picture (the sticky header put back in the flow, or it lands mid-page). */
async function shot(page: Page, name: string): Promise<void> {
  // Through the CSSOM: the CSP (style hashes) refuses an added <style>, as it should.
  await page.evaluate(
    "document.querySelector('.site-header')?.style.setProperty('position', 'static')",
  );
  await snap(page, { path: join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * A slot's button on the slots page, on `date`: the week grid shows every day of the week,
 * a phone's day strip shows one day at a time (chosen first).
 */
async function showDay(page: Page, date: string): Promise<Locator> {
  await page.locator('button[data-slot-id]').first().waitFor();
  // The server's markup is there before the app: tap once it is live (hydrated).
  await page.locator('html[data-live]').waitFor({ state: 'attached' });
  const stripDay = page.locator(`.strip-day[data-date="${date}"]`);
  if (await stripDay.count()) await stripDay.click();
  return page.locator(`[data-date="${date}"] button[data-slot-id]`);
}

/** The slots page opened afresh on `date`. */
async function openDay(page: Page, date: string): Promise<void> {
  await page.goto(slotsUrl);
  await page.reload();
  await showDay(page, date);
}

/** A slot's state; polled, since the taken seats arrive after the slots. */
const slotState = (page: Page, date: string, slotId: string) =>
  page.locator(`[data-date="${date}"] button[data-slot-id="${slotId}"]`).getAttribute('data-state');

/**
 * The ticket page's QR: there, in a square whose size is fixed before the code is drawn
 * (nothing moves), and readable: decoded from the screen as a counter's camera would.
 */
async function readQr(page: Page, code: string, lang: 'en' | 'fr' = 'en'): Promise<string> {
  const label = lang === 'fr' ? `Code QR du ticket ${code}` : `QR code of ticket ${code}`;
  const image = page.getByRole('img', { name: label });
  await image.waitFor();
  const box = await page.locator('.ticket-qr__box').boundingBox();
  expect(box && Math.round(box.width)).toBe(box && Math.round(box.height));
  expect(box?.width).toBeGreaterThanOrEqual(200);
  const png = await image.screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const found = jsQR(new Uint8ClampedArray(data), info.width, info.height);
  expect(found?.data).toBe(await image.getAttribute('data-token'));
  return found?.data ?? '';
}

/** Ticket code, date and time shown on the ticket page. */
async function shownBooking(page: Page) {
  const text = async (id: string) =>
    ((await page.getByTestId(id).textContent()) ?? '').replace(/\s+/g, ' ').trim();
  return {
    code: await text('ticket-code'),
    date: await text('booking-date'),
    time: await text('booking-time'),
  };
}

describe('the ticket page and My bookings at 360×740 (issue 10)', () => {
  let code = '';
  let booked = { date: TUESDAY, slotId: '', time: '' };
  let moved = { date: WEDNESDAY, slotId: '' };
  /** The phone that booked: it keeps the booking's key. */
  let phone: Page;

  it('books and pays, then finds the booking in My bookings and opens its ticket page', async () => {
    phone = await newPage();
    const page = phone;
    await page.goto(slotsUrl);
    await page.getByRole('heading', { name: 'Book an appointment' }).waitFor();
    const free = (await showDay(page, TUESDAY)).and(page.locator('[data-state="free"]')).first();
    await free.waitFor();
    booked = { ...booked, slotId: (await free.getAttribute('data-slot-id')) ?? '' };
    booked.time = ((await free.textContent()) ?? '').trim().slice(0, 5);
    expect(booked.time).toMatch(/^\d{2}:\d{2}$/);
    await free.click();
    await page.getByLabel('Username').fill('Ada Nkem');
    await page.getByLabel('Email').fill('ada@example.cm');
    await page.getByLabel('Mobile money number').fill(PHONE);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('button', { name: /^Pay 2 XAF$/ }).click();
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    await page.locator('dialog[open]').waitFor({ state: 'detached' });

    // The header's link, through the menu on a phone.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'My bookings' }).click();
    await page.getByRole('heading', { name: 'My bookings', level: 1 }).waitFor();
    const entry = page.locator('.my-booking').first();
    await expect.poll(() => entry.getAttribute('data-state')).toBe('confirmed');
    expect(await page.getByRole('heading', { name: 'Upcoming' }).count()).toBe(1);
    await shot(page, 'e2e-my-bookings-360-en');
    await entry.getByRole('link', { name: /^Open ticket/ }).click();

    await page.getByRole('heading', { name: 'Your booking', level: 1 }).waitFor();
    await page.locator('.status-chip', { hasText: 'Confirmed' }).waitFor();
    // The key opened the booking and left the address (and the history).
    await expect.poll(() => page.url()).toMatch(/\/ticket\/QL-[^?]+$/);
    const shown = await shownBooking(page);
    code = shown.code;
    expect(code).toMatch(/^QL-/);
    expect(shown.time.startsWith(`${booked.time}–`)).toBe(true);
    expect(await page.getByText('Douala time (UTC+1)').count()).toBeGreaterThan(0);
    // The heading has focus on arrival.
    expect(await page.evaluate('document.activeElement?.tagName')).toBe('H1');
    const map = page.getByRole('link', { name: /Map and directions/ });
    expect(await map.getAttribute('href')).toMatch(
      /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=.*Bamenda/,
    );
    expect(await map.getAttribute('target')).toBe('_blank');
    expect(await map.getAttribute('rel')).toContain('noopener');
    await shot(page, 'e2e-ticket-360-en');
    // Issue 18, point 6: the page shows the ticket's QR, the compact token the counter reads.
    const token = await readQr(page, code);
    expect(token).toMatch(new RegExp(`^${code}\\.[A-Za-z0-9_-]{86}$`));

    // The PDF again.
    const pdfDownload = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Download ticket' }).click();
    const pdfFile = join(ARTIFACTS, 'ticket-page.pdf');
    await (await pdfDownload).saveAs(pdfFile);
    const pdf = readFileSync(pdfFile, 'latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf.length).toBeGreaterThan(2000);
    expect(pdf).toContain(code);

    // The calendar file: the slot's start in UTC (Douala is UTC+1).
    const icsDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Add to calendar' }).click();
    const ics = await icsDownload;
    expect(ics.suggestedFilename()).toBe(`qless-${code}.ics`);
    const icsFile = join(ARTIFACTS, 'ticket-page.ics');
    await ics.saveAs(icsFile);
    const calendar = readFileSync(icsFile, 'utf8');
    const [h, m] = booked.time.split(':').map(Number) as [number, number];
    const utc = `${TUESDAY.replace(/-/g, '')}T${String(h - 1).padStart(2, '0')}${String(m).padStart(2, '0')}00Z`;
    expect(calendar).toContain(`\r\nDTSTART:${utc}\r\n`);
    expect(calendar).toContain(`${code}`);
    expect(calendar.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
  });

  it('reschedules to another slot: the old one is free again and the new one taken', async () => {
    const page = phone;
    await page.goto(`${server.origin}/#/my-bookings`);
    await page.locator('.my-booking[data-state="confirmed"]').first().waitFor();
    await page
      .getByRole('link', { name: /^Open ticket/ })
      .first()
      .click();
    await page.locator('.status-chip', { hasText: 'Confirmed' }).waitFor();
    await page.getByText(/You can reschedule or cancel until/).waitFor();

    await page.getByRole('button', { name: 'Reschedule' }).click();
    await page.getByRole('heading', { name: 'Choose a new time' }).waitFor();
    await page.locator(`.day-chip[data-date="${WEDNESDAY}"]`).click();
    const target = page.locator('.time-btn[data-slot-id]').first();
    await target.waitFor();
    moved = { ...moved, slotId: (await target.getAttribute('data-slot-id')) ?? '' };
    const newTime = ((await target.textContent()) ?? '').trim();
    await shot(page, 'e2e-reschedule-picker-360-en');
    await target.click();
    const dialog = page.locator('dialog[open]');
    await dialog.getByRole('heading', { name: 'Move your booking?' }).waitFor();
    await dialog.getByText('The 2 XAF fee you paid carries over: nothing more to pay.').waitFor();
    // The dialog's first control has focus.
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Confirm new time');
    await snap(page, { path: join(SHOTS, 'e2e-reschedule-confirm-360-en.png') });
    await dialog.getByRole('button', { name: 'Confirm new time' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(/^Done: your booking is now on/).waitFor();
    await page.getByTestId('rescheduled-from').waitFor();
    expect(await page.getByTestId('rescheduled-from').textContent()).toContain(booked.time);
    expect((await shownBooking(page)).time.startsWith(`${newTime}–`)).toBe(true);
    await shot(page, 'e2e-rescheduled-360-en');

    await openDay(page, TUESDAY);
    await expect.poll(() => slotState(page, TUESDAY, booked.slotId)).toBe('free');
    await openDay(page, WEDNESDAY);
    await expect.poll(() => slotState(page, WEDNESDAY, moved.slotId)).toBe('taken');
  });

  it('on another device: the public look-up, then the code and the last four digits open it', async () => {
    const page = await newPage('en', true);
    await page.goto(`${server.origin}/#/ticket/${code}`);
    await page.getByRole('heading', { name: 'Your booking', level: 1 }).waitFor();
    await page.getByText('Valid ticket').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel booking' }).count()).toBe(0);
    const digits = page.getByLabel('Last 4 digits of the phone number');
    await digits.fill('12');
    await page.getByRole('button', { name: 'Show my booking' }).click();
    await page.getByText('Enter exactly four digits, e.g. 3456.').waitFor();
    await digits.fill('9999');
    await page.getByRole('button', { name: 'Show my booking' }).click();
    await page.getByText(/No booking matches this code and these digits/).waitFor();
    await shot(page, 'e2e-access-refused-360-en');
    expect(await seriousViolations(page)).toEqual([]);
    await digits.fill(LAST4);
    await page.getByRole('button', { name: 'Show my booking' }).click();
    await page.locator('.status-chip', { hasText: 'Confirmed' }).waitFor();
    expect((await shownBooking(page)).code).toBe(code);
    await page.getByTestId('rescheduled-from').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Reschedule' }).click();
    await page.locator('.time-btn[data-slot-id]').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Keep current time' }).click();
    // Focus returns to the button that opened the picker.
    await expect
      .poll(() => page.evaluate('document.activeElement?.textContent'))
      .toBe('Reschedule');

    // In French, on a third device: the public look-up.
    const fr = await newPage('fr');
    await fr.goto(`${server.origin}/#/ticket/${code}`);
    await fr.getByRole('heading', { name: 'Votre réservation', level: 1 }).waitFor();
    await fr.getByText('Ticket valide').waitFor();
    await fr.getByText('4 derniers chiffres du numéro de téléphone').waitFor();
    await shot(fr, 'e2e-lookup-360-fr');
    // The owner's digits open it: the QR is there, labelled in French.
    await fr.getByLabel('4 derniers chiffres du numéro de téléphone').fill(LAST4);
    await fr.getByRole('button', { name: 'Voir ma réservation' }).click();
    await fr.locator('.status-chip', { hasText: 'Confirmée' }).waitFor();
    expect(await readQr(fr, code, 'fr')).toMatch(new RegExp(`^${code}\\.`));
    await shot(fr, 'e2e-ticket-qr-360-fr');
    mkdirSync('/tmp/shots-18', { recursive: true });
    await snap(fr, { path: '/tmp/shots-18/point6-ticket-qr-360-fr.png' });
  });

  it('a short link that opens no ticket lands on My bookings, which says so, in French', async () => {
    const page = await newPage('fr', true);
    await page.goto(`${server.origin}/t/0000000000AB`);
    await page.waitForURL(/\/my-bookings\?link=unknown$/);
    await page.getByText(/Ce lien n’ouvre aucun ticket/).waitFor();
    await page.getByLabel('Code du ticket').waitFor();
    await shot(page, 'e2e-short-link-unknown-360-fr');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('cancels: the dialog says the fee is not refunded, and the slot is free again', async () => {
    const page = await newPage('en', true);
    await page.goto(`${server.origin}/#/ticket/${code}`);
    await page.getByLabel('Last 4 digits of the phone number').fill(LAST4);
    await page.getByRole('button', { name: 'Show my booking' }).click();
    await page.locator('.status-chip', { hasText: 'Confirmed' }).waitFor();
    const cancel = page.getByRole('button', { name: 'Cancel booking' });
    await cancel.click();
    const dialog = page.locator('dialog[open]');
    await dialog.getByText('The 2 XAF fee is not refunded when you cancel.').waitFor();
    // A destructive choice focuses the safe button first.
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Keep booking');
    await dialog.getByRole('button', { name: 'Keep booking' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Focus returns to the button that opened the dialog.
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Cancel booking');
    await cancel.click();
    await snap(page, { path: join(SHOTS, 'e2e-cancel-confirm-360-en.png') });
    await dialog.getByRole('button', { name: 'Yes, cancel booking' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('.status-chip', { hasText: 'Cancelled by you' }).waitFor();
    await page.getByText('Your booking is cancelled. The slot is free for others.').waitFor();
    expect(await page.getByRole('button', { name: 'Reschedule' }).count()).toBe(0);
    await shot(page, 'e2e-cancelled-360-en');

    await openDay(page, WEDNESDAY);
    await expect.poll(() => slotState(page, WEDNESDAY, moved.slotId)).toBe('free');

    // My bookings lists it with the past and cancelled ones, removable from the device.
    await page.goto(`${server.origin}/#/my-bookings`);
    await page.getByRole('heading', { name: 'Past and cancelled' }).waitFor();
    await page.locator('.my-booking[data-state="cancelled"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: /^Remove from this device: / }).click();
    await page.getByText('Removed from this device.').waitFor();
    await page.getByText(/No bookings on this device yet/).waitFor();
  });
});
