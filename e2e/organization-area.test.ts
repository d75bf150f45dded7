import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../apps/api/src/core/access/passwords';
import { insertUser } from '../apps/api/src/core/access/users.repository';
import { type Database, openDatabase } from '../apps/api/src/db/database';
import { syncServiceSlots } from '../apps/api/src/modules/slots/slots.repository';
import { ARTIFACTS, DESKTOP, launch, MOBILE, seriousViolations, snap } from './support/browser';
import { type RunningServer, startServer } from './support/server';

/**
 * The organization area against the real server, on a PostgreSQL database the set-up
 * shares with it: an organization, its admin and counter staff are written there, and a
 * customer books through the payment API (simulator) before the admin looks.
 */

const PASSWORD = 'a long e2e passphrase';
const ORG_NAME = 'Guichet Unique de Bonanjo';
const ADMIN_EMAIL = 'admin@guichet-bonanjo.cm';
const STAFF_EMAIL = 'counter@guichet-bonanjo.cm';
const CUSTOMER = { name: 'Ngono Marie', phone: '+237677123456' };
const BOOKED_AT = '20:00';

let database: Database;
let server: RunningServer;
let browser: Browser;
let adminId = '';
let ticketCode = '';

/** The date `days` from now in Douala (yyyy-MM-dd). */
function inDouala(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Douala' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

/** Open 06:00–22:00, public (verified, complete) so that a customer can book it. */
async function seedOrganization(): Promise<string> {
  const db = database.db;
  const org = await db
    .insertInto('organizations')
    .values({
      name: ORG_NAME,
      email: 'contact@guichet-bonanjo.cm',
      time_zone: 'Africa/Douala',
      location: 'Rue Joss, Bonanjo',
      city: 'Douala',
      category: 'Civil registry',
      start_time: '06:00',
      end_time: '22:00',
      verified_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const service = await db
    .insertInto('services')
    .values({
      organization_id: org.id,
      name: 'Birth certificate',
      description: 'Copy of a birth certificate',
      duration_minutes: 30,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await syncServiceSlots(db, service.id, new Date());
  const hash = await hashPassword(PASSWORD);
  const now = new Date();
  for (const [email, role] of [
    [ADMIN_EMAIL, 'org_admin'],
    [STAFF_EMAIL, 'staff'],
  ] as const) {
    const user = await insertUser(db, {
      email,
      role,
      organizationId: org.id,
      passwordHash: hash,
      now,
    });
    if (role === 'org_admin') adminId = user.id;
  }
  return service.id;
}

interface PaymentStatus {
  status: string;
  ticket?: { code?: string } | null;
}

/** A customer books and pays (simulator) the 20:00 slot tomorrow, as the public pages do. */
async function bookThroughPaymentApi(serviceId: string): Promise<void> {
  const slots = (await (
    await fetch(`${server.origin}/api/v1/service/${serviceId}/slots`)
  ).json()) as { slots: { id: string; start_time: { Microseconds: number } }[] };
  const at = 20 * 3_600_000_000;
  const slot = slots.slots.find((s) => s.start_time.Microseconds === at);
  if (!slot) throw new Error('no 20:00 slot');
  const res = await fetch(`${server.origin}/api/v1/payment/initiate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({
      cus_name: CUSTOMER.name,
      cus_email: 'ngono.marie@example.com',
      phone_number: CUSTOMER.phone,
      amount: '2',
      currency: 'XAF',
      description: 'Service Payment',
      reference: `e2e-${randomBytes(6).toString('hex')}`,
      service_id: serviceId,
      slot_id: slot.id,
      // Tomorrow, so the booking is upcoming whatever the hour.
      date: inDouala(1),
    }),
  });
  if (!res.ok) throw new Error(`initiate: ${res.status} ${await res.text()}`);
  const { payment } = (await res.json()) as { payment: { payment_id: string } };
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = (await (
      await fetch(`${server.origin}/api/v1/payment/${payment.payment_id}`)
    ).json()) as PaymentStatus;
    if (status.status === 'SUCCESSFUL') {
      ticketCode = status.ticket?.code ?? '';
      return;
    }
    if (status.status === 'FAILED' || Date.now() > deadline) {
      throw new Error(`payment ended ${status.status}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** A small real PNG (solid colour), built here so the upload is decoded by the server. */
function makePng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = (table[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array(width).fill(rgb).flat())]);
  const pixels = Buffer.concat(Array(height).fill(row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  server = await startServer();
  // The set-up writes what the test needs beside the server's demo data.
  database = await openDatabase({ databaseUrl: server.databaseUrl, dataDir: null });
  const serviceId = await seedOrganization();
  await bookThroughPaymentApi(serviceId);
  expect(ticketCode).toMatch(/^QL-/);
  // Then, as for an organization still being onboarded: unverified, city and category empty.
  await database.db
    .updateTable('organizations')
    .set({ city: '', category: '', verified_at: null })
    .where('name', '=', ORG_NAME)
    .execute();
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await database?.close();
});

async function newPage(
  viewport: { width: number; height: number } = DESKTOP,
  locale = 'en-GB',
): Promise<{ context: BrowserContext; page: Page }> {
  // bypassCSP: the API's CSP (script-src 'self') would block injecting axe-core.
  const context = await browser.newContext({
    viewport,
    reducedMotion: 'reduce',
    locale,
    bypassCSP: true,
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return { context, page };
}

async function logIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${server.origin}/#/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate<number>(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

const area = (path = '') => `${server.origin}/#/organization/${path}`;

describe('organization area against the real server', () => {
  it('says "You are not logged in." to nobody, with the way to Login', async () => {
    const { context, page } = await newPage();
    await page.goto(area('service'));
    await page.getByText('You are not logged in.').waitFor();
    await page.getByRole('link', { name: 'Login' }).last().click();
    await page.waitForURL(/\/login$/);
    await context.close();
  });

  it('shows "Logging in..." while busy and a toast for a wrong password', async () => {
    const { context, page } = await newPage();
    // Slow the answer down enough to see the busy state.
    await page.route('**/api/v1/auth/login', async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await logIn(page, ADMIN_EMAIL, 'not the password at all');
    const busy = page.getByRole('button', { name: 'Logging in...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    const toast = page.getByRole('alert').filter({ hasText: 'Wrong email or password.' });
    await toast.waitFor();
    await snap(page, { path: `${ARTIFACTS}/area-login-toast-1280.png` });
    // It closes by itself after 4000 ms.
    await toast.waitFor({ state: 'detached', timeout: 6000 });
    expect(page.url()).toMatch(/\/login$/);
    await context.close();
  });

  it('signs the admin in to the Dashboard, which says what the profile lacks', async () => {
    const { context, page } = await newPage();
    await logIn(page, ADMIN_EMAIL);
    await page.getByRole('heading', { name: `Welcome, ${ORG_NAME} admin` }).waitFor();
    expect(page.url()).toMatch(/\/organization\/$/);
    const prompt = page.getByText('Update your profile to become visible');
    await prompt.waitFor();
    await page.getByText('these are filled in: City and Category.').waitFor();
    await page.getByText('Our team has not verified your organization yet.').waitFor();
    await page.getByText('Total Services').waitFor();
    expect(await page.locator('.stat dd').first().textContent()).toBe('1');
    await page.getByText('Total Bookings').waitFor();
    await page.getByRole('button', { name: 'Add New Service' }).waitFor();
    await page.getByRole('link', { name: 'View All Bookings' }).waitFor();
    await page.getByRole('heading', { name: 'Upcoming Bookings' }).waitFor();
    // The header: name and initial avatar.
    expect(await page.locator('.area__org').textContent()).toBe(ORG_NAME);
    expect(await page.locator('.area__head .avatar').textContent()).toBe('G');
    await context.close();
  });

  it('adds a service through the modal and lists it in the Services table', async () => {
    const { context, page } = await newPage();
    await logIn(page, ADMIN_EMAIL);
    await page.getByRole('heading', { name: `Welcome, ${ORG_NAME} admin` }).waitFor();
    await page.getByRole('link', { name: 'Services', exact: true }).click();
    await page.getByRole('heading', { name: 'Services' }).waitFor();
    for (const column of ['Name', 'Description', 'Duration (In minutes)']) {
      await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    await page.getByRole('button', { name: 'Add Service' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Service' });
    await dialog.waitFor();
    await dialog.getByLabel('Service name', { exact: true }).fill('Marriage certificate');
    await dialog.getByLabel('Description', { exact: true }).fill('Certified copy of a marriage');
    // A duration that is not whole minutes is refused in words before any request.
    await dialog.getByLabel('Duration in minutes').fill('2');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Enter the duration as a whole number of minutes').waitFor();
    await dialog.getByLabel('Duration in minutes').fill('20');
    await dialog.getByText('In French (optional)').click();
    await dialog.getByLabel('Service name in French').fill('Acte de mariage');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Service added successfully!').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const row = page.locator('tr', { hasText: 'Marriage certificate' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Certified copy of a marriage');
    expect(await row.locator('td').nth(2).textContent()).toBe('20');
    expect(await row.textContent()).toContain('Acte de mariage');

    // Edit in the same modal.
    await row.getByRole('button', { name: 'Edit Marriage certificate' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Service' });
    expect(await edit.getByLabel('Duration in minutes').inputValue()).toBe('20');
    await edit.getByLabel('Duration in minutes').fill('25');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Service updated successfully!').waitFor();
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('25');

    // Deactivate, after a confirmation that says what it does; then reactivate.
    await row.getByRole('button', { name: 'Deactivate Marriage certificate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deactivate Marriage certificate?' });
    await confirm.getByText('Customers will no longer see or book this service.').waitFor();
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('Service deactivated.').waitFor();
    await row.getByText('Inactive').waitFor();
    await row.getByRole('button', { name: 'Reactivate Marriage certificate' }).click();
    await page
      .getByRole('dialog', { name: 'Reactivate Marriage certificate?' })
      .getByRole('button', { name: 'Reactivate' })
      .click();
    await page.getByText('Service reactivated.').waitFor();
    await row.getByText('Active', { exact: true }).waitFor();
    await context.close();
  });

  it('updates the profile with HH:MM times and an uploaded logo, and flags the booking left outside', async () => {
    const { context, page } = await newPage();
    await logIn(page, ADMIN_EMAIL);
    await page.getByRole('heading', { name: `Welcome, ${ORG_NAME} admin` }).waitFor();
    await page.getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByRole('heading', { name: 'Update Profile' }).waitFor();
    expect(await page.getByLabel('Organization email').getAttribute('readonly')).not.toBeNull();
    // Time pickers, not free text (issue 18, point 8).
    expect(await page.getByLabel('Start time').getAttribute('type')).toBe('time');
    // Wrong type, refused in words before any upload.
    await page.locator('input[type=file]').setInputFiles({
      name: 'logo.gif',
      mimeType: 'image/gif',
      buffer: Buffer.from('GIF89a'),
    });
    await page.getByText('This file is not a PNG, JPEG or WebP image.').waitFor();
    await page.locator('input[type=file]').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: makePng(64, 64, [10, 88, 202]),
    });
    await page.getByText('Logo uploaded. Save Changes to use it.').waitFor();
    await page.getByLabel('Start time').fill('08:00');
    await page.getByLabel('End time').fill('17:00');
    await page.getByLabel('City').fill('Douala');
    await page.getByLabel('Category').fill('Civil registry');
    // The customers' cut-off: 2 hours unless the organization says otherwise.
    const cutoff = page.getByLabel('Cancellation and rescheduling cut-off (minutes)');
    expect(await cutoff.inputValue()).toBe('120');
    await cutoff.fill('20000');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Enter a whole number of minutes from 0 to 10080 (7 days).').waitFor();
    await cutoff.fill('90');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('organization info updated successfully!').waitFor();
    const saved = await page.evaluate(async () => {
      const res = await fetch('/api/v1/organization/data');
      const body = (await res.json()) as { organizationData: { change_cutoff_minutes: number } };
      return body.organizationData.change_cutoff_minutes;
    });
    expect(saved).toBe(90);
    // The 20:00 booking no longer fits 08:00–17:00: flagged, never dropped.
    await page.getByText('1 booking no longer fits and needs your attention.').waitFor();
    // The header shows the logo now.
    await page.locator('.area__head .avatar img').waitFor();

    // A closure date is added and removed at once (its own calls, apart from Save Changes).
    const closureDay = inDouala(30);
    await page.getByLabel('Date', { exact: true }).fill(closureDay);
    await page.getByLabel('Reason (optional)').fill('Public holiday');
    await page.getByRole('button', { name: 'Add closure' }).click();
    await page.getByText('Closure added.').waitFor();
    await page.getByText('Public holiday', { exact: true }).waitFor();
    await page.getByRole('button', { name: /^Remove the closure on / }).click();
    await page.getByText('Closure removed.').waitFor();
    await page.getByText('No closure dates.').waitFor();

    await page.getByRole('link', { name: 'See them in Bookings' }).click();
    await page.getByRole('heading', { name: 'Bookings' }).waitFor();
    const flagged = page.locator('tr.is-flagged', { hasText: CUSTOMER.name });
    await flagged.waitFor();
    expect(await flagged.textContent()).toContain(
      'Needs attention: its time is outside your new opening hours.',
    );
    await context.close();
  });

  it('lists the booking made through the payment API with its client, contact and ticket', async () => {
    const { context, page } = await newPage();
    await logIn(page, ADMIN_EMAIL);
    await page.getByRole('heading', { name: `Welcome, ${ORG_NAME} admin` }).waitFor();
    await page.getByRole('link', { name: 'View All Bookings' }).click();
    await page.getByRole('heading', { name: 'Bookings' }).waitFor();
    for (const column of ['Client', 'Day/Time', 'Service', 'Client Contact', 'Status']) {
      await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    const row = page.locator('tbody tr', { hasText: CUSTOMER.name });
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(CUSTOMER.phone);
    expect(text).toContain('Birth certificate');
    expect(text).toContain(BOOKED_AT);
    expect(text).toContain('Confirmed');
    expect(text).toContain(ticketCode);
    // Filtering on a status it does not have empties the list.
    await page.getByLabel('Status').selectOption('no_show');
    await page.getByText('No bookings found.').waitFor();
    await context.close();
  });

  it("reaches the screens by the spec's /organization//x links", async () => {
    const { context, page } = await newPage();
    await logIn(page, ADMIN_EMAIL);
    await page.getByRole('heading', { name: `Welcome, ${ORG_NAME} admin` }).waitFor();
    await page.goto(area('/service'));
    await page.getByRole('heading', { name: 'Services' }).waitFor();
    expect(page.url()).toMatch(/\/organization\/service$/);
    await context.close();
  });

  it('speaks French after the language switch', async () => {
    const { context, page } = await newPage();
    await logIn(page, ADMIN_EMAIL);
    await page.getByRole('heading', { name: `Welcome, ${ORG_NAME} admin` }).waitFor();
    await page.getByLabel('Language').selectOption('fr');
    await page.getByRole('heading', { name: `Bienvenue, administrateur de ${ORG_NAME}` }).waitFor();
    await page.getByText('Total des services').waitFor();
    await page.getByRole('link', { name: 'Réservations', exact: true }).click();
    await page.getByRole('columnheader', { name: 'Contact du client' }).waitFor();
    await page.locator('tbody tr', { hasText: CUSTOMER.name }).getByText('Confirmée').waitFor();
    await context.close();
  });

  it('gives counter staff Today and the counter only, and refuses the admin screens in words', async () => {
    const { context, page } = await newPage(MOBILE);
    await logIn(page, STAFF_EMAIL);
    await page.waitForURL(/\/organization\/today$/);
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    const nav = page.getByRole('navigation', { name: 'Organization menu' });
    const entries = (await nav.locator('a, button').allTextContents()).map((s) => s.trim());
    expect(entries).toEqual(['Today', 'Counter', 'Logout']);
    for (const path of ['service', 'bookings', 'profile', 'staff', 'queue/setup']) {
      await page.goto(area(path));
      await page.getByRole('heading', { name: 'For administrators only' }).waitFor();
    }
    await snap(page, { path: `${ARTIFACTS}/area-staff-refused-360.png`, fullPage: true });
    await context.close();
  });

  it('returns to the signed-out state when the session ends mid-use, and logs out', async () => {
    const { context, page } = await newPage();
    await logIn(page, ADMIN_EMAIL);
    await page.getByRole('heading', { name: `Welcome, ${ORG_NAME} admin` }).waitFor();
    // The server ends every session of the admin (as a password change elsewhere does).
    await database.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', adminId)
      .execute();
    await page.getByRole('link', { name: 'Bookings', exact: true }).click();
    await page.getByText('Your session has ended. Please log in again.').waitFor();
    await page.getByText('You are not logged in.').waitFor();

    await logIn(page, ADMIN_EMAIL);
    await page.getByRole('heading', { name: `Welcome, ${ORG_NAME} admin` }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/login$/);
    await page.goto(area());
    await page.getByText('You are not logged in.').waitFor();
    await context.close();
  });

  // Phones in both languages; the desk computer in English (its layout does not change with
  // the language, and a fourth pass cost 12 s of a CPU-bound suite).
  it('screens: no sideways scrolling, no serious axe issue, screenshots at 360 px in English and French and at 1280 px', async () => {
    for (const locale of ['en', 'fr'] as const) {
      for (const viewport of locale === 'en' ? [MOBILE, DESKTOP] : [MOBILE]) {
        const { context, page } = await newPage(viewport, locale === 'fr' ? 'fr-FR' : 'en-GB');
        const shot = async (name: string) => {
          await snap(page, {
            path: `${ARTIFACTS}/area-${name}-${locale}-${viewport.width}.png`,
            fullPage: true,
          });
          await noSidewaysScroll(page);
          // axe checks the markup, which the language does not change (an empty French text
          // is the i18n test's to catch): once per viewport, in English.
          if (locale === 'fr') return;
          const violations = await seriousViolations(page);
          expect(violations, `${name}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
        };
        await page.goto(area());
        await page.locator('.signed-out').waitFor();
        await shot('signed-out');
        await page.goto(`${server.origin}/#/login`);
        await page.locator('input[type=email]').fill(ADMIN_EMAIL);
        await page.locator('input[type=password]').fill(PASSWORD);
        await shot('login');
        await page.locator('button[type=submit]').click();
        await page.locator('.stat').first().waitFor();
        await shot('dashboard');
        if (viewport === MOBILE) {
          await page.locator('.area__menu-toggle').click();
          await shot('menu');
        }
        await page.goto(area('service'));
        await page.locator('.data-table').waitFor();
        await shot('services');
        await page.locator('.screen-head .btn--primary').click();
        await page.locator('dialog[open]').waitFor();
        await snap(page, {
          path: `${ARTIFACTS}/area-add-service-${locale}-${viewport.width}.png`,
        });
        await page.keyboard.press('Escape');
        await page.goto(area('bookings'));
        await page.locator('.data-table').waitFor();
        await shot('bookings');
        await page.goto(area('profile'));
        await page.locator('input[name=name]').waitFor();
        await shot('profile');
        await page.goto(area('today'));
        await page.locator('.area__content h1').waitFor();
        await shot('today');
        await context.close();
      }
    }
  });
});
