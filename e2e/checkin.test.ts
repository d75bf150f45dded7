import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, formatMinutes, ticketPageUrl, zonedNow } from '@qless/contract/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTicketCode } from '../apps/api/src/modules/tickets/ticket-code';
import { TicketSigner } from '../apps/api/src/modules/tickets/ticket-signer';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { ARTIFACTS, launch, MOBILE, seriousViolations, snap } from './support/browser';
import { type RunningServer, startServer } from './support/server';

/**
 * The counter's Today screen against the real server on PostgreSQL (so this test can add
 * a staff account and today's paid bookings the way payments leave them): check-in by
 * typed code, twice, by a QR image, and offline then synced.
 */
let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let signer: TicketSigner;
let org: { id: string; name: string; time_zone: string };
let service: { id: string; slots: string[] };
let today = '';
let seat = 0;

interface Booked {
  id: string;
  code: string;
  name: string;
  date: string;
}

async function book(name: string, date = today): Promise<Booked> {
  seat += 1;
  const code = generateTicketCode();
  const row = await tdb.database.db
    .insertInto('bookings')
    .values({
      organization_id: org.id,
      service_id: service.id,
      slot_id: service.slots[seat % service.slots.length] ?? '',
      booking_date: date,
      seat: 100 + seat,
      status: 'confirmed',
      cus_name: name,
      cus_email: `customer${seat}@example.cm`,
      phone_number: `+23767700${String(seat).padStart(4, '0')}`,
      ticket_code: code,
      confirmed_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, code, name, date };
}

/**
 * The PNG of a ticket's QR code: the compact token of today's tickets (code + signature),
 * or (`link`) what the PDFs printed before it hold, a ticket page link carrying an EdDSA
 * JWT. `tokenDate`: the day the JWT names, when the booking was moved since (a reschedule
 * keeps the customer's old QR).
 */
async function qrImage(
  b: Booked,
  options: { link?: boolean; tokenDate?: string } = {},
): Promise<string> {
  const claims = {
    booking_id: b.id,
    organization_id: org.id,
    ticket_code: b.code,
    booking_date: options.tokenDate ?? b.date,
    confirmed_at: new Date(),
  };
  const token = options.link ? await signer.signJwt(claims) : await signer.sign(claims);
  const text = options.link ? ticketPageUrl(server.origin, b.code, { t: token }) : token;
  const file = join(ARTIFACTS, `checkin-qr-${b.id}.png`);
  writeFileSync(
    file,
    await QRCode.toBuffer(text, { errorCorrectionLevel: 'M', margin: 2, width: 360 }),
  );
  return file;
}

async function statusOf(id: string) {
  return tdb.database.db
    .selectFrom('bookings')
    .select(['status', 'checked_in_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function staffPage(
  locale: 'en-GB' | 'fr-FR',
): Promise<{ context: BrowserContext; page: Page }> {
  // bypassCSP: the API's CSP (script-src 'self') would block injecting axe-core.
  const context = await browser.newContext({
    viewport: MOBILE,
    locale,
    reducedMotion: 'reduce',
    bypassCSP: true,
  });
  const login = await context.request.post(`${server.origin}/api/v1/auth/login`, {
    data: { email: 'counter@e2e.cm', password: TEST_PASSWORD },
  });
  expect(login.status()).toBe(200);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  await page.goto(`${server.origin}/#/organization/today`);
  await page.locator('.checkin-list').waitFor();
  return { context, page };
}

const result = (page: Page) => page.getByTestId('checkin-result');

async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByLabel(/Ticket code|Code du ticket/).fill(code);
  await page.getByRole('button', { name: /^(Check in|Enregistrer)$/ }).click();
}

beforeAll(async () => {
  tdb = await createTestDatabase('postgres');
  if (!tdb.url) throw new Error('no PostgreSQL url');
  server = await startServer({ env: { DATABASE_URL: tdb.url } });
  browser = await launch();
  const db = tdb.database.db;
  const first = await db
    .selectFrom('organizations as o')
    .innerJoin('services as s', 's.organization_id', 'o.id')
    .select(['o.id', 'o.name', 'o.time_zone', 's.id as service_id'])
    .where('s.active', '=', true)
    .orderBy('o.name')
    .executeTakeFirstOrThrow();
  org = { id: first.id, name: first.name, time_zone: first.time_zone };
  const slots = await db
    .selectFrom('slots')
    .select('id')
    .where('service_id', '=', first.service_id)
    .where('retired_at', 'is', null)
    .orderBy('start_time')
    .execute();
  service = { id: first.service_id, slots: slots.map((s) => s.id) };
  today = zonedNow(org.time_zone, new Date()).date;
  await createUser(db, { email: 'counter@e2e.cm', role: 'staff', organizationId: org.id });
  // The server made the Ed25519 key on start; the same database gives this test its signer.
  signer = await TicketSigner.load(db, null);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
});

describe('check-in at the counter, in Chromium at 360 px', () => {
  it('checks in by typed code once, then says when; by a QR image; refuses another day', async () => {
    const byCode = await book('Marie Counter-Code');
    const byImage = await book('Joseph Counter-Image');
    const later = await book('Paul Counter-Later', addDays(today, 1));
    const { context, page } = await staffPage('en-GB');
    await page.getByRole('heading', { name: 'Today', exact: true }).waitFor();
    await page.getByText(org.name, { exact: false }).first().waitFor();
    expect(await page.locator('.checkin-item', { hasText: 'Marie Counter-Code' }).count()).toBe(1);

    await typeCode(page, byCode.code.toLowerCase());
    await expect.poll(() => result(page).textContent()).toBe('Checked in');
    const first = await statusOf(byCode.id);
    expect(first.status).toBe('checked_in');
    const at = formatMinutes(zonedNow(org.time_zone, first.checked_in_at ?? new Date(0)).minutes);
    await typeCode(page, byCode.code);
    await expect.poll(() => result(page).textContent()).toBe(`Already checked in at ${at}`);

    await typeCode(page, later.code);
    const longDay = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'long',
      timeZone: 'UTC',
    }).format(new Date(`${later.date}T12:00:00Z`));
    await expect.poll(() => result(page).textContent()).toBe(`This ticket is for ${longDay}`);

    await page.getByTestId('checkin-image').setInputFiles(await qrImage(byImage));
    await expect.poll(() => result(page).textContent()).toBe('Checked in');
    expect((await statusOf(byImage.id)).status).toBe('checked_in');
    await page
      .locator('.checkin-item', { hasText: 'Joseph Counter-Image' })
      .getByText('Checked in')
      .waitFor();
    await snap(page, { path: `${ARTIFACTS}/checkin-360-en.png` });
    await snap(page, { path: `${ARTIFACTS}/checkin-360-en-full.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= 360')).toBe(true);

    // No camera here (or permission refused): the dialog says what to do instead.
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByText('The camera is not available.', { exact: false }).waitFor();
    await snap(page, { path: `${ARTIFACTS}/checkin-360-en-camera.png` });
    await page.getByRole('button', { name: 'Close the camera' }).first().click();
    await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
    await context.close();
  });

  it('offline: checks a scanned ticket against the cached list, queues it, sends it when back online', async () => {
    const offline = await book('Alice Counter-Offline');
    const moved = await book('Bruno Counter-Moved');
    const { context, page } = await staffPage('en-GB');
    await page.getByTestId('checkin-network').getByText('Online').waitFor();
    const image = await qrImage(offline);

    await context.setOffline(true);
    await page.getByTestId('checkin-network').getByText('Offline').waitFor();
    await page.getByTestId('checkin-image').setInputFiles(image);
    await expect
      .poll(() => result(page).textContent())
      .toBe('Checked in (offline: it will be sent when the network returns)');
    await page.getByText('Offline — 1 check-in waiting').waitFor();
    expect((await statusOf(offline.id)).status).toBe('confirmed');
    // The same ticket again, still offline: the device knows it was just checked in.
    await page.getByTestId('checkin-image').setInputFiles(image);
    await expect
      .poll(() => result(page).textContent())
      .toMatch(/^Already checked in at \d\d:\d\d$/);
    await snap(page, { path: `${ARTIFACTS}/checkin-360-en-offline.png` });
    // A ticket page link (the QR of new tickets), whose token names the day the booking
    // had before it was rescheduled to today: read offline from the link, the day from the list.
    await page
      .getByTestId('checkin-image')
      .setInputFiles(await qrImage(moved, { link: true, tokenDate: addDays(today, 3) }));
    await expect
      .poll(() => result(page).textContent())
      .toBe('Checked in (offline: it will be sent when the network returns)');
    await page.getByText('Offline — 2 check-ins waiting').waitFor();

    await context.setOffline(false);
    await expect
      .poll(async () => (await statusOf(offline.id)).status, { timeout: 10_000 })
      .toBe('checked_in');
    await expect
      .poll(async () => (await statusOf(moved.id)).status, { timeout: 10_000 })
      .toBe('checked_in');
    await page.getByTestId('checkin-network').getByText('Online', { exact: true }).waitFor();
    expect(
      await page.evaluate<string | null>(
        "localStorage.getItem('qless.user-data.checkin.queue.v1')",
      ),
    ).toBe('[]');
    await context.close();
  });

  it('cancels a booking after asking, in French, and says everything in French', async () => {
    const toCancel = await book('Sylvie Counter-Test');
    const { context, page } = await staffPage('fr-FR');
    await page.getByRole('heading', { name: "Aujourd'hui", exact: true }).waitFor();
    const row = page.locator('.checkin-item', { hasText: 'Sylvie Counter-Test' });
    await row.getByRole('button', { name: 'Annuler — Sylvie Counter-Test' }).click();
    await page.getByRole('heading', { name: 'Annuler cette réservation ?' }).waitFor();
    await snap(page, { path: `${ARTIFACTS}/checkin-360-fr-confirm.png` });
    await page.getByRole('button', { name: 'Annuler la réservation' }).click();
    await row.getByText('Annulée').waitFor();
    expect((await statusOf(toCancel.id)).status).toBe('cancelled');
    await typeCode(page, toCancel.code);
    await expect.poll(() => result(page).textContent()).toBe('Cette réservation a été annulée');
    await typeCode(page, 'QL-2345');
    await expect
      .poll(() => result(page).textContent())
      .toBe('Un code de ticket ressemble à QL-7K4M-2QAB-XC9D');
    await page.evaluate('window.scrollTo(0, 0)');
    await snap(page, { path: `${ARTIFACTS}/checkin-360-fr.png` });
    await page
      .locator('.checkin-item', { hasText: 'Sylvie Counter-Test' })
      .scrollIntoViewIfNeeded();
    await snap(page, { path: `${ARTIFACTS}/checkin-360-fr-list.png` });

    const offline = await book('Odile Counter-Hors-Ligne');
    await page.reload();
    await page.locator('.checkin-item', { hasText: 'Odile Counter-Hors-Ligne' }).waitFor();
    await context.setOffline(true);
    await page.getByTestId('checkin-network').getByText('Hors ligne').waitFor();
    await typeCode(page, offline.code);
    await expect
      .poll(() => result(page).textContent())
      .toBe('Arrivée enregistrée (hors ligne\u00a0: elle sera envoyée au retour du réseau)');
    await page.getByText('Hors ligne — 1 arrivée en attente').waitFor();
    await page.evaluate('window.scrollTo(0, 0)');
    await snap(page, { path: `${ARTIFACTS}/checkin-360-fr-offline.png` });
    await context.setOffline(false);
    await expect
      .poll(async () => (await statusOf(offline.id)).status, { timeout: 10_000 })
      .toBe('checked_in');
    await context.close();
  });
});
