import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, formatMinutes, zonedNow } from '@qless/contract/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  linkToken,
  type SmtpCapture,
  startSmtpCapture,
} from '../apps/api/test/support/smtp-capture';
import { ARTIFACTS, launch, MOBILE, snap } from './support/browser';
import { createOperator, type RunningServer, startServer } from './support/server';

/**
 * Issue 8's "Done when": the whole organization loop in Chromium at 360 px against the real
 * server, with a real SMTP server catching the mail. Nothing is written to the database
 * behind the product's back: every step goes through a screen (or, for the QR token, the
 * payment status the customer's own page reads).
 *
 * The day. A ticket can only be checked in on its own day, in the organization's time zone,
 * and the customer must book a slot that has not started yet. On the real clock that makes
 * the test depend on the hour it runs at (at 23:50 in Douala there is no later slot today,
 * and a check-in a minute later is on the wrong day). So the server runs on a clock that
 * starts at 09:30 in Douala, two days from now, and runs on from there (QLESS_FAKE_NOW,
 * refused by the server unless NODE_ENV=test); every browser context gets the same clock.
 * The customer books today's 11:00 and 11:30, and the very tickets they paid for are
 * checked in at the counter the same morning. Two days ahead keeps the fake "now" later than
 * the real one, so no cookie the server sets is already expired for the browser.
 */

const TZ = 'Africa/Douala';
/** Douala is UTC+1 all year (no summer time). */
const DAY = addDays(zonedNow(TZ, new Date()).date, 2);
const START = new Date(`${DAY}T09:30:00+01:00`);

const OPERATOR = { email: 'ops@qless.test', password: 'operator passphrase 1' };
const ORG = {
  name: 'Mairie de Kribi',
  email: 'etat-civil@mairie-kribi.cm',
  location: 'Boulevard du Port',
  city: 'Kribi',
  category: 'Civil registry',
};
const ADMIN = { name: 'Mme Ngo Bisseck', password: 'kribi town hall passphrase' };
const STAFF = {
  email: 'guichet@mairie-kribi.cm',
  name: 'Samuel',
  password: 'counter 1 passphrase',
};
const SERVICE = {
  name: 'Birth certificate copy',
  description: 'A certified copy of a birth certificate from the civil registry',
  minutes: '30',
};
const CUSTOMERS = [
  { name: 'Ebenye Clarisse', phone: '677 123 456', e164: '+237677123456', at: '11:00' },
  { name: 'Tchoumi Arnaud', phone: '699 555 010', e164: '+237699555010', at: '11:30' },
] as const;

let server: RunningServer;
let smtp: SmtpCapture;
let browser: Browser;
/** Real time just before the server started, setting its clock to START. */
let realStart = 0;
const contexts: BrowserContext[] = [];

/** The server's "now" (the fake clock), to give each browser context the same time. */
const serverNow = () => new Date(START.getTime() + (Date.now() - realStart));

beforeAll(async () => {
  smtp = await startSmtpCapture();
  server = await startServer({
    env: {
      NODE_ENV: 'test',
      QLESS_FAKE_NOW: START.toISOString(),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Qless <no-reply@qless.test>',
      MAIL_WORKER_INTERVAL_MS: '200',
    },
    // The first operator is made by the CLI, on the server's fresh database, before it starts.
    prepare: (env) => {
      createOperator(env, OPERATOR);
      // The server starts right after this and sets its clock to START as it starts.
      realStart = Date.now();
    },
  });
  browser = await launch();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({
    viewport: MOBILE,
    reducedMotion: 'reduce',
    locale: 'en-GB',
    timezoneId: TZ,
  });
  contexts.push(context);
  await context.clock.install({ time: serverNow() });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') console.error('[console]', m.text());
  });
  return page;
}

const go = (page: Page, path: string) => page.goto(`${server.origin}/#${path}`);

let shots = 0;
/** A full-page screenshot (or the viewport, for a modal) at 360 px, into the artifacts. */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  shots += 1;
  const file = `loop-${String(shots).padStart(2, '0')}-${name}-360.png`;
  // From the top: a full-page shot of a scrolled page draws the sticky header mid-page.
  if (fullPage) await page.evaluate('window.scrollTo(0, 0)');
  await snap(page, { path: join(ARTIFACTS, file), fullPage });
  // Every screen of the loop fits a 360 px phone: nothing to scroll sideways.
  const overflow = await page.evaluate<number>(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  expect(overflow, `${file} scrolls sideways`).toBeLessThanOrEqual(0);
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await go(page, '/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** The area's sidebar is folded behind "Menu" at 360 px. */
async function openArea(page: Page, entry: string): Promise<void> {
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page
    .getByRole('navigation', { name: 'Organization menu' })
    .getByRole('link', { name: entry, exact: true })
    .click();
}

/** Sets a password on an invitation page; the account is then signed in. */
async function acceptInvitation(page: Page, token: string, password: string, name?: string) {
  await go(page, `/invite/${token}`);
  await page.getByRole('heading', { name: 'Set up your account' }).waitFor();
  await page.getByText(`You are invited to ${ORG.name}.`).waitFor();
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('New password again').fill(password);
  if (name) await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Activate my account' }).click();
}

/** A logo made here: a real PNG the server has to decode and re-encode. */
function logoPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128">
    <rect width="128" height="128" fill="#1a7f37"/>
    <circle cx="64" cy="64" r="40" fill="#f2c200"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

interface PaidTicket {
  code: string;
  token: string;
}

/** Books `at` today through the public booking modal, pays with the simulator. */
async function bookAndPay(page: Page, customer: (typeof CUSTOMERS)[number]): Promise<PaidTicket> {
  const slot = page
    .locator(`button.slot[data-date="${DAY}"][data-state="free"]`)
    .filter({ hasText: customer.at });
  await slot.click();
  await page.getByText('Fill in your details to confirm your slot').waitFor();
  await page.getByLabel('Username').fill(customer.name);
  await page.getByLabel('Email').fill(`${customer.name.split(' ')[0]?.toLowerCase()}@example.cm`);
  await page.getByLabel('Mobile money number').fill(customer.phone);
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.getByRole('heading', { name: 'Confirm Appointment Details' }).waitFor();
  const rows = (await page.locator('.rows').textContent()) ?? '';
  for (const text of [ORG.name, SERVICE.name, customer.name, customer.phone, customer.at]) {
    expect(rows).toContain(text);
  }
  await page.getByRole('button', { name: /^Pay 2 XAF$/ }).click();
  await page.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'View ticket' }).click();
  await page.getByRole('heading', { name: 'Download Ticket' }).waitFor();
  const code = (
    (await page.locator('.rows__row', { hasText: 'Ticket code' }).locator('dd').textContent()) ?? ''
  ).trim();
  expect(code).toMatch(/^QL-/);
  // The QR code on the ticket holds the signed token the customer's page was given.
  const paymentId = await page.evaluate<string | null>("localStorage.getItem('paymentId')");
  const status = (await (
    await fetch(`${server.origin}/api/v1/payment/${paymentId ?? ''}`)
  ).json()) as { ticket: { code: string; token: string } | null };
  expect(status.ticket?.code).toBe(code);
  return { code, token: status.ticket?.token ?? '' };
}

/** The QR code of a ticket as the ticket PDF draws it (same library, same settings). */
async function ticketQr(ticket: PaidTicket): Promise<string> {
  const file = join(ARTIFACTS, 'loop-ticket-qr.png');
  writeFileSync(
    file,
    await QRCode.toBuffer(ticket.token, { errorCorrectionLevel: 'Q', margin: 1, width: 360 }),
  );
  return file;
}

/** What decides how a badge looks. */
interface Look {
  fontWeight: string;
  padding: string;
  fontSize: string;
}

/** HH:MM in Douala of an instant. */
const doualaTime = (at: Date) => formatMinutes(zonedNow(TZ, at).minutes);

describe('the organization loop, in Chromium at 360 px, against the real server and SMTP', () => {
  it('contact request → approved → invited admin completes the profile → listed → booked and paid → staff check the tickets in', async () => {
    // 1. A visitor asks for the organization to join, with the contact form.
    const visitor = await newPage();
    await go(visitor, '/contact');
    await visitor.getByLabel('Organization name').fill(ORG.name);
    await visitor.getByLabel('Email').fill(ORG.email);
    await visitor.getByLabel('Contact person').fill('Marie Ngo');
    await visitor.getByLabel('Phone number').fill('677 12 34 56');
    await visitor
      .getByLabel('Message')
      .fill('We would like residents to book their civil registry appointments.');
    await visitor.getByRole('button', { name: 'Submit' }).click();
    await visitor.getByText("Request sent! We'll get back to you soon.").waitFor();
    await shot(visitor, 'contact-sent');

    // 2. The operator signs in on the Login page and approves the request in /platform.
    const ops = await newPage();
    await logIn(ops, OPERATOR.email, OPERATOR.password);
    await ops.waitForURL(/\/platform$/);
    const request = ops.locator('.console-card', { hasText: ORG.name });
    // Received on the server's clock: this morning, not the real date.
    const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: TZ }).format(
      START,
    );
    await request.getByText(new RegExp(`^Received ${day}, 09:3\\d$`)).waitFor();
    await request.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(() => request.getByLabel('Email of the first admin').inputValue())
      .toBe(ORG.email);
    await request.getByLabel('City').fill(ORG.city);
    await request.getByLabel('Category').fill(ORG.category);
    await shot(ops, 'platform-approve');
    await request.getByRole('button', { name: 'Create and invite' }).click();
    await ops.getByText(`${ORG.name} was created, with an account for ${ORG.email}.`).waitFor();

    // 3. The invitation arrives by SMTP; the admin sets a password and is signed in.
    const invitation = await smtp.waitFor(ORG.email, /invitation/);
    const admin = await newPage();
    await acceptInvitation(admin, linkToken(invitation.text, 'invite'), ADMIN.password, ADMIN.name);
    await admin.waitForURL(/\/organization\/$/);
    await admin.getByRole('heading', { name: `Welcome, ${ORG.name} admin` }).waitFor();
    await admin.getByText('Our team has not verified your organization yet.').waitFor();
    await shot(admin, 'dashboard-new');

    // 4. The profile: hours as HH:MM, location, city, category, every day open, and a logo.
    await openArea(admin, 'Profile');
    await admin.getByRole('heading', { name: 'Update Profile' }).waitFor();
    await admin.getByLabel('Organization name').fill(ORG.name);
    await admin.getByLabel('Start time').fill('08:00');
    await admin.getByLabel('End time').fill('17:00');
    await admin.getByLabel('Location').fill(ORG.location);
    await admin.getByLabel('City').fill(ORG.city);
    await admin.getByLabel('Category').fill(ORG.category);
    // A new organization opens Monday to Friday until its admin confirms the days (issue 18).
    expect(
      await admin
        .locator('input[name="open_days"]:checked')
        .evaluateAll((boxes) => boxes.map((b) => (b as unknown as { value: string }).value)),
    ).toEqual(['1', '2', '3', '4', '5']);
    for (const day of await admin.locator('input[name="open_days"]').all()) await day.check();
    await admin.getByLabel('These are our opening days').check();
    await admin.locator('input[type=file]').setInputFiles({
      name: 'kribi.png',
      mimeType: 'image/png',
      buffer: await logoPng(),
    });
    await admin.getByText('Logo uploaded. Save Changes to use it.').waitFor();
    await admin.getByRole('button', { name: 'Save Changes' }).click();
    await admin.getByText('organization info updated successfully!').waitFor();
    // The header now shows the logo, served back by the server.
    const headerLogo = admin.locator('.area__head .avatar img');
    await headerLogo.waitFor();
    await expect
      .poll(() =>
        headerLogo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBe(128);
    await shot(admin, 'profile-saved');

    // A service, with the Add New Service modal.
    await openArea(admin, 'Services');
    await admin.getByRole('heading', { name: 'Services' }).waitFor();
    await admin.getByRole('button', { name: 'Add Service' }).click();
    const modal = admin.getByRole('dialog', { name: 'Add New Service' });
    await modal.getByLabel('Service name', { exact: true }).fill(SERVICE.name);
    await modal.getByLabel('Description', { exact: true }).fill(SERVICE.description);
    await modal.getByLabel('Duration in minutes').fill(SERVICE.minutes);
    await shot(admin, 'add-service', false);
    await modal.getByRole('button', { name: 'Create' }).click();
    await admin.getByText('Service added successfully!').waitFor();
    await modal.waitFor({ state: 'detached' });
    await admin.locator('tr', { hasText: SERVICE.name }).waitFor();
    await shot(admin, 'services');

    // 5. Not public before an operator has verified it; then the operator verifies it.
    await go(visitor, '/organizations');
    await visitor.getByPlaceholder('Search organization...').fill('Kribi');
    await visitor.getByText('No organizations found.').waitFor();

    await ops.getByRole('tab', { name: 'Organizations' }).click();
    const listing = ops.locator(`.console-card[data-organization="${ORG.name}"]`);
    await listing.getByText('Not listed').waitFor();
    // The profile is complete: nothing is reported missing, only the verification.
    expect(await listing.locator('.console-card__missing').count()).toBe(0);
    await listing.getByRole('button', { name: 'Verify' }).click();
    await listing.getByText('Listed publicly').waitFor();
    await listing.scrollIntoViewIfNeeded();
    await shot(ops, 'platform-verified', false);

    // A logged-out visitor finds it from the landing page, with its logo, and its service.
    await go(visitor, '/');
    await visitor.getByRole('link', { name: 'View Organizations', exact: true }).click();
    await visitor.getByPlaceholder('Search organization...').fill('Kribi');
    const card = visitor.locator('.org-card', { hasText: ORG.name });
    await card.waitFor();
    await card.getByRole('img', { name: `${ORG.name} logo` }).waitFor();
    await shot(visitor, 'organizations');
    await card.click();
    await visitor.getByRole('heading', { name: `${ORG.name} Services` }).waitFor();
    const serviceCard = visitor.locator('.service-card', { hasText: SERVICE.name });
    await serviceCard.waitFor();
    await shot(visitor, 'services-public');

    // 6. Customers book today's 11:00 and 11:30 through the booking modal and pay.
    await serviceCard.click();
    await visitor.getByRole('heading', { name: 'Book an appointment' }).waitFor();
    await visitor.locator(`button.slot[data-date="${DAY}"]`).first().waitFor();
    // It is 09:30 there: the morning's first slots have already started (the phone's day
    // strip leaves them out or shows them taken; never free).
    expect(
      await visitor
        .locator(`button.slot[data-date="${DAY}"][data-state="free"]`)
        .filter({ hasText: '08:00' })
        .count(),
    ).toBe(0);
    await shot(visitor, 'slots');
    const first = await bookAndPay(visitor, CUSTOMERS[0]);
    await shot(visitor, 'ticket', false);
    await visitor.keyboard.press('Escape');
    await visitor.locator('dialog[open]').waitFor({ state: 'detached' });
    const second = await bookAndPay(visitor, CUSTOMERS[1]);
    await visitor.keyboard.press('Escape');

    // 7. The bookings are in the admin's Bookings table, with the clients' names and phones.
    await openArea(admin, 'Bookings');
    await admin.getByRole('heading', { name: 'Bookings' }).waitFor();
    for (const customer of CUSTOMERS) {
      const row = admin.locator('tbody tr', { hasText: customer.name });
      await row.waitFor();
      const text = (await row.textContent()) ?? '';
      expect(text).toContain(customer.e164);
      expect(text).toContain(SERVICE.name);
      expect(text).toContain(customer.at);
      expect(text).toContain('Confirmed');
    }
    await shot(admin, 'bookings');
    const badgeLook = () =>
      admin
        .locator('tbody tr', { hasText: CUSTOMERS[0].name })
        .locator('.badge')
        .evaluate((el) => {
          // This file is type-checked without the DOM library.
          const style = (
            globalThis as unknown as { getComputedStyle: (e: unknown) => Look }
          ).getComputedStyle(el);
          return `${style.fontWeight} ${style.padding} ${style.fontSize}`;
        });
    const bookingsBadge = await badgeLook();

    // The Dashboard counts them and lists the day's as "Today, HH:MM"; nothing left to do.
    await openArea(admin, 'Dashboard');
    await admin.getByRole('heading', { name: `Welcome, ${ORG.name} admin` }).waitFor();
    // The screen shows what it had while it reads the data again: wait for the new counts.
    await expect.poll(() => admin.locator('.stat dd').allTextContents()).toEqual(['1', '2']);
    for (const customer of CUSTOMERS) {
      await admin
        .locator('.upcoming li', { hasText: customer.name })
        .getByText(`Today, ${customer.at}`)
        .waitFor();
    }
    // Verified and complete: neither the profile prompt nor the verification notice is left.
    expect(await admin.getByText('Update your profile to become visible').count()).toBe(0);
    expect(await admin.getByText('Our team has not verified your organization yet.').count()).toBe(
      0,
    );
    await shot(admin, 'dashboard-booked');

    // 8. The admin invites counter staff; the invitation comes by SMTP.
    await openArea(admin, 'Staff');
    await admin.getByRole('heading', { name: 'Staff' }).waitFor();
    await admin.getByLabel('Email').fill(STAFF.email);
    await admin.getByLabel('Name').fill(STAFF.name);
    // An admin invites counter staff or a branch manager (decision 024), never another admin:
    // admins are the operators' call. Staff is the default.
    const role = admin.getByLabel('Role');
    expect(
      await role.locator('option').evaluateAll((o) => o.map((x) => x.getAttribute('value'))),
    ).toEqual(['staff', 'branch_manager']);
    expect(await role.inputValue()).toBe('staff');
    await admin.getByRole('button', { name: 'Invite', exact: true }).click();
    await admin.getByText(`Account created for ${STAFF.email}.`).waitFor();
    await shot(admin, 'staff-invited');
    const staffMail = await smtp.waitFor(STAFF.email, /invitation/);

    // The staff member sets a password, then signs in on the Login page.
    const staff = await newPage();
    await acceptInvitation(staff, linkToken(staffMail.text, 'invite'), STAFF.password);
    await staff.waitForURL(/\/organization\/today$/);
    await staff.getByRole('button', { name: 'Menu', exact: true }).click();
    await staff.getByRole('button', { name: 'Logout', exact: true }).click();
    await staff.waitForURL(/\/login$/);
    await logIn(staff, STAFF.email, STAFF.password);
    await staff.waitForURL(/\/organization\/today$/);
    await staff.getByRole('heading', { name: 'Today', exact: true }).waitFor();
    for (const customer of CUSTOMERS) {
      await staff.locator('.checkin-item', { hasText: customer.name }).waitFor();
    }
    await shot(staff, 'today');

    // By the typed code: checked in, then "already checked in at HH:MM".
    const result = staff.getByTestId('checkin-result');
    // The server's clock lags serverNow() by its start-up (a few seconds): allow 15 s.
    const before = doualaTime(new Date(serverNow().getTime() - 15_000));
    await staff.getByLabel('Ticket code').fill(first.code);
    await staff.getByRole('button', { name: 'Check in', exact: true }).click();
    await expect.poll(() => result.textContent()).toBe('Checked in');
    const after = doualaTime(serverNow());
    const firstRow = staff.locator('.checkin-item', { hasText: CUSTOMERS[0].name });
    await firstRow.getByText('Checked in').waitFor();
    const at = /at (\d\d:\d\d)/.exec((await firstRow.textContent()) ?? '')?.[1] ?? '';
    expect([before, after]).toContain(at);
    await shot(staff, 'checked-in-by-code');
    await staff.getByLabel('Ticket code').fill(first.code);
    await staff.getByRole('button', { name: 'Check in', exact: true }).click();
    await expect.poll(() => result.textContent()).toBe(`Already checked in at ${at}`);
    await shot(staff, 'already-by-code');

    // By a QR image fed to "Scan an image": checked in once, then already checked in.
    const qr = await ticketQr(second);
    await staff.getByTestId('checkin-image').setInputFiles(qr);
    await expect.poll(() => result.textContent()).toBe('Checked in');
    const secondRow = staff.locator('.checkin-item', { hasText: CUSTOMERS[1].name });
    await secondRow.getByText('Checked in').waitFor();
    const qrAt = /at (\d\d:\d\d)/.exec((await secondRow.textContent()) ?? '')?.[1] ?? '';
    expect(qrAt).toMatch(/^\d\d:\d\d$/);
    await staff.getByTestId('checkin-image').setInputFiles(qr);
    await expect.poll(() => result.textContent()).toBe(`Already checked in at ${qrAt}`);
    await shot(staff, 'already-by-qr');

    // The admin's Bookings table says so too, with the same times.
    await openArea(admin, 'Bookings');
    for (const [customer, time] of [
      [CUSTOMERS[0], at],
      [CUSTOMERS[1], qrAt],
    ] as const) {
      const row = admin.locator('tbody tr', { hasText: customer.name });
      await row.getByText('Checked in', { exact: true }).waitFor();
      await row.getByText(`Checked in at ${time}`).waitFor();
    }
    await shot(admin, 'bookings-checked-in');

    // The admin can open Today too; its styles (loaded with it) leave the Bookings table as it was.
    await openArea(admin, 'Today');
    await admin.locator('.checkin-item', { hasText: CUSTOMERS[0].name }).waitFor();
    await openArea(admin, 'Bookings');
    await admin.locator('tbody tr', { hasText: CUSTOMERS[0].name }).waitFor();
    expect(await badgeLook()).toBe(bookingsBadge);
  });
});
