import { addDays, dayOfWeek, zonedNow } from '@qless/contract/core';
import { type APIRequestContext, type Browser, type CDPSession, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookingAccess } from '../apps/api/src/core/access/booking-access';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import {
  type FakePushService,
  startPushServiceFake,
} from '../apps/api/test/support/push-service-fake';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { type FakeWhatsApp, startFakeWhatsApp } from '../apps/api/test/support/whatsapp-fake';
import { MOBILE, shotsDir, snap } from './support/browser';
import { CHROMIUM, CHROMIUM_FLAGS } from './support/chromium';
import { confirmedBooking, openDemoService } from './support/demo-queue';
import { type RunningServer, startServer } from './support/server';

/**
 * Issue 35, item 2 (decision 142): a booked customer taps "Notify me on this phone" on the
 * ticket page at 360 px, is checked in and called, and gets "you are next" and "go to the
 * counter" by web push, with no SMS sent. Headless Chromium has no push service: the page's
 * pushManager.subscribe is stubbed to give a subscription at a local push service (which checks
 * VAPID), the test decrypts what the server posted there with the phone's keys, and hands it
 * to the service worker with the DevTools protocol (ServiceWorker.deliverPushMessage). The
 * worker shows it and reports it shown; the server then spares the SMS.
 */
const SHOTS = shotsDir('push');
const TZ = 'Africa/Douala';
let monday = addDays(zonedNow(TZ, new Date()).date, 2);
while (dayOfWeek(monday) !== 1) monday = addDays(monday, 1);
const START = `${monday}T09:30:00+01:00`;

let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let fake: FakePushService;
let whatsapp: FakeWhatsApp;
let api: APIRequestContext;
let org: { id: string };
let service: { id: string };

beforeAll(async () => {
  fake = await startPushServiceFake();
  whatsapp = await startFakeWhatsApp(['qless_queue_near', 'qless_queue_called']);
  tdb = await createTestDatabase('postgres');
  if (!tdb.url) throw new Error('no PostgreSQL url');
  server = await startServer({
    env: {
      DATABASE_URL: tdb.url,
      NODE_ENV: 'test',
      QLESS_FAKE_NOW: START,
      PUSH_SERVICE_ORIGINS: fake.origin,
      WHATSAPP_API_BASE_URL: whatsapp.baseUrl,
      WHATSAPP_ACCESS_TOKEN: whatsapp.accessToken,
      WHATSAPP_PHONE_NUMBER_ID: whatsapp.phoneNumberId,
      WHATSAPP_APP_SECRET: whatsapp.appSecret,
      OUTBOX_WORKER_INTERVAL_MS: '250',
    },
  });
  // The full browser: the headless shell has no notifications (Notification.permission stays
  // "denied" whatever is granted, and a service worker cannot show one).
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const db = tdb.database.db;
  const open = await openDemoService(server.origin, db);
  org = open.org;
  service = { id: open.service.id };
  await createUser(db, { email: 'push-admin@e2e.cm', role: 'org_admin', organizationId: org.id });
  const staff = await browser.newContext();
  const login = await staff.request.post(`${server.origin}/api/v1/auth/login`, {
    data: { email: 'push-admin@e2e.cm', password: TEST_PASSWORD },
  });
  expect(login.status()).toBe(200);
  api = staff.request;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
  await fake?.close();
  await whatsapp?.close();
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

/** A confirmed booking for today, as a payment makes it. */
async function bookToday(phoneNumber: string, seat = 301) {
  const db = tdb.database.db;
  const booking = await confirmedBooking(db, {
    organizationId: org.id,
    serviceId: service.id,
    date: monday,
    seat,
    name: 'Ngono Marie',
    email: 'ngono@example.cm',
    phone: phoneNumber,
  });
  return { ...booking, key: (await BookingAccess.load(db)).keyFor(booking.id) };
}

/** The service worker's registration id, as the DevTools protocol names it. */
async function registrationOf(cdp: CDPSession, scope: string): Promise<string> {
  const seen = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
    for (const r of e.registrations) if (!r.isDeleted) seen.set(r.scopeURL, r.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => seen.get(scope), { timeout: 20_000 }).toBeDefined();
  return seen.get(scope) as string;
}

describe('web push on the ticket page', () => {
  it('a subscribed phone gets its turn by push, and no SMS is sent', async () => {
    const booking = await bookToday('+237677000301');
    const phone = fake.phone('ngono');
    const context = await browser.newContext({ viewport: MOBILE, locale: 'fr-FR' });
    await context.grantPermissions(['notifications'], { origin: server.origin });
    // No push service in headless Chromium: subscribe gives the fake phone's subscription.
    await context.addInitScript((subscription) => {
      const made = { ...subscription, expirationTime: null, toJSON: () => subscription };
      // Kept across the pages of the test, as the browser keeps its subscription.
      const SUBSCRIBED = 'e2e.push.subscribed';
      const { sessionStorage: store } = globalThis as unknown as {
        sessionStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
      };
      const { prototype } = (
        globalThis as unknown as { PushManager: { prototype: Record<string, unknown> } }
      ).PushManager;
      prototype.subscribe = async () => {
        store.setItem(SUBSCRIBED, '1');
        return made;
      };
      prototype.getSubscription = async () => (store.getItem(SUBSCRIBED) === '1' ? made : null);
    }, phone.subscription);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.origin}/ticket/${booking.code}#k=${booking.key}`);
    const notify = page.getByRole('button', { name: 'Me prévenir sur ce téléphone' });
    await notify.scrollIntoViewIfNeeded();
    await snap(page, { path: `${SHOTS}/ticket-notify-off-360-fr.png` });
    await notify.click();
    await page.getByText('Ce téléphone sera prévenu quand votre tour arrive.').waitFor();
    await snap(page, { path: `${SHOTS}/ticket-notify-on-360-fr.png` });

    const cdp = await context.newCDPSession(page);
    const registrationId = await registrationOf(cdp, `${server.origin}/`);

    // Checked in (you are next: the only one in line) and called at a counter.
    await call('POST', '/organization/checkins', { code: booking.code });
    const { counter } = await call<{ counter: { counter_id: string } }>('POST', '/queue/counters', {
      name: 'Guichet 4',
      service_ids: [service.id],
    });
    await call('POST', `/queue/counters/${counter.counter_id}/open`);
    await call('POST', `/queue/counters/${counter.counter_id}/call-next`);

    await expect
      .poll(() => fake.received.filter((p) => p.phone === 'ngono').length, { timeout: 20_000 })
      .toBe(2);
    const bodies: string[] = [];
    for (const push of fake.received.filter((p) => p.phone === 'ngono')) {
      const payload = fake.open(push, phone);
      bodies.push(payload.body);
      // What the push service would hand the phone, handed to its service worker.
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: server.origin,
        registrationId,
        data: JSON.stringify(payload),
      });
    }
    expect(bodies.some((b) => b.includes('Guichet 4'))).toBe(true);

    const db = tdb.database.db;
    const visit = await db
      .selectFrom('visits')
      .select('id')
      .where('booking_id', '=', booking.id)
      .executeTakeFirstOrThrow();
    const rows = () =>
      db
        .selectFrom('outbox')
        .select(['channel', 'status', 'delivery', 'last_error'])
        .where('dedupe_key', 'like', `visit:${visit.id}:%`)
        .orderBy('channel')
        .execute();
    // The worker said both were shown: delivered, and the SMS behind each spared.
    await expect
      .poll(async () => (await rows()).filter((r) => r.delivery === 'delivered').length, {
        timeout: 20_000,
      })
      .toBe(2);
    const all = await rows();
    expect(all.filter((r) => r.channel === 'sms')).toEqual([
      { channel: 'sms', status: 'skipped', delivery: null, last_error: 'delivered by push' },
      { channel: 'sms', status: 'skipped', delivery: null, last_error: 'delivered by push' },
    ]);

    // My bookings offers the same, and "Stop" there makes the server forget this phone.
    const subscriptions = () =>
      db
        .selectFrom('push_subscriptions')
        .select('endpoint')
        .where('about', '=', `booking:${booking.id}`)
        .execute();
    expect(await subscriptions()).toHaveLength(1);
    // The phone's day is the server's (a checked-in booking is listed under Today).
    await context.clock.install({ time: new Date(START) });
    await page.goto(`${server.origin}/my-bookings`);
    const card = page.locator(`[data-booking-id="${booking.id}"]`);
    await card.getByText('Ce téléphone sera prévenu quand ce sera votre tour.').waitFor();
    await snap(page, { path: `${SHOTS}/my-bookings-notify-on-360-fr.png`, fullPage: true });
    await card.getByRole('button', { name: 'Ne plus me prévenir sur ce téléphone' }).click();
    await card.getByRole('button', { name: 'Me prévenir sur ce téléphone' }).waitFor();
    // The keyboard's focus went to the button that replaced the one pressed.
    await expect
      .poll(() => page.evaluate<string | undefined>('document.activeElement?.textContent'))
      .toBe('Me prévenir sur ce téléphone');
    expect(await subscriptions()).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a customer without push who asked for WhatsApp gets it, and the SMS when it did not arrive in time', async () => {
    const { settings } = await call<{ settings: Record<string, unknown> }>(
      'GET',
      '/queue/settings',
    );
    await call('PUT', '/queue/settings', { ...settings, join_enabled: true });
    const context = await browser.newContext({ viewport: MOBILE, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${server.origin}/join/${org.id}`);
    await page.locator('html[data-live]').waitFor();
    await page.locator(`.join-service:has(input[value="${service.id}"])`).click();
    await page.getByLabel('Votre nom').fill('Awa Ndongo');
    await page.getByLabel('Téléphone mobile (facultatif)').fill('677000302');
    await page.getByLabel(/M’envoyer mon tour par WhatsApp/).check();
    await snap(page, { path: `${SHOTS}/join-whatsapp-360-fr.png`, fullPage: true });
    await page.getByRole('button', { name: 'Rejoindre la file' }).click();
    await page.waitForURL(/\/visit\/[0-9a-f-]{36}$/);
    const visitId = page.url().split('/visit/')[1] ?? '';

    const { counter } = await call<{ counter: { counter_id: string } }>('POST', '/queue/counters', {
      name: 'Guichet 5',
      service_ids: [service.id],
    });
    await call('POST', `/queue/counters/${counter.counter_id}/open`);
    await call('POST', `/queue/counters/${counter.counter_id}/call-next`);
    // The approved template, in French, with the counter's name after its article.
    await expect
      .poll(() =>
        whatsapp.sent.find((m) => m.to === '237677000302' && m.template === 'qless_queue_called'),
      )
      .toMatchObject({
        language: 'fr',
        params: [
          expect.any(String),
          'au Guichet 5',
          expect.any(String),
          expect.stringContaining('/visit/'),
        ],
      });

    const db = tdb.database.db;
    const sms = () =>
      db
        .selectFrom('outbox')
        .select(['status'])
        .where('dedupe_key', 'like', `visit:${visitId}:called:%`)
        .where('channel', '=', 'sms')
        .executeTakeFirst();
    // No delivered status comes: within its minute the SMS waits…
    expect(await sms()).toMatchObject({ status: 'pending' });
    // …then goes (the server's clock moved on five minutes; "go to the counter" is still news).
    process.kill(server.pid, 'SIGUSR2');
    await expect.poll(async () => (await sms())?.status, { timeout: 20_000 }).toBe('sent');
    await context.close();
  });
  it('a booked customer asks for WhatsApp on the ticket page, in French', async () => {
    const booking = await bookToday('+237677000303', 302);
    const context = await browser.newContext({ viewport: MOBILE, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${server.origin}/ticket/${booking.code}#k=${booking.key}`);
    const choice = page.getByLabel(/M’envoyer mon tour par WhatsApp au \+237 677 000 303/);
    await choice.check();
    await expect.poll(() => choice.isChecked()).toBe(true);
    await snap(page, { path: `${SHOTS}/ticket-whatsapp-360-fr.png`, fullPage: true });
    const optIn = async () =>
      (
        await tdb.database.db
          .selectFrom('bookings')
          .select('whatsapp_opt_in_at')
          .where('id', '=', booking.id)
          .executeTakeFirstOrThrow()
      ).whatsapp_opt_in_at;
    await expect.poll(optIn).not.toBeNull();
    // Kept: the page opened again shows it ticked; unticked, it is gone.
    await page.reload();
    await expect.poll(() => choice.isChecked()).toBe(true);
    await choice.uncheck();
    await expect.poll(optIn).toBeNull();
    await context.close();
  });
});
