import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { zonedNow } from '@qless/contract/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncServiceSlots } from '../apps/api/src/modules/slots/slots.repository';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { launch, MOBILE } from './support/browser';
import { type RunningServer, startServer } from './support/server';

/**
 * Issue 19's "done when": a morning at the counter, in French at 360 px, against the real
 * server on PostgreSQL. An admin sets up two counters and a board; two booked customers
 * (paid through the simulator, checked in at the counter) and three walk-ins (one from the
 * QR poster's page, two added by staff) enter; two clerks call, serve, recall and mark a
 * no-show; the board (1920×1080) and each customer's page show the right number at each
 * step; the SMS "you are next" and "go to the counter" leave once each (read in the outbox).
 */
const SCREENS = process.env.QUEUE_SCREENS_DIR ?? '/work/notes/screens';
mkdirSync(SCREENS, { recursive: true });

let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let orgId = '';
let serviceId = '';
const contexts: BrowserContext[] = [];

const WALK_IN_PHONE = '677 55 44 33';
const WALK_IN_E164 = '+237677554433';

async function api<T>(path: string, init: RequestInit & { session?: string } = {}): Promise<T> {
  const { session, ...rest } = init;
  const res = await fetch(`${server.origin}/api/v1${path}`, {
    ...rest,
    headers: {
      'content-type': 'application/json',
      origin: server.origin,
      ...(session ? { authorization: `Bearer ${session}` } : {}),
      ...(rest.headers as Record<string, string> | undefined),
    },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${rest.method ?? 'GET'} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

async function signIn(email: string): Promise<string> {
  const { token } = await api<{ token: string }>('/auth/login', {
    method: 'POST',
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  return token;
}

/** A browser page of its own (cookies, storage), in French. */
async function newPage(viewport = MOBILE, email?: string): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'fr-FR', reducedMotion: 'reduce' });
  contexts.push(context);
  if (email) {
    const login = await context.request.post(`${server.origin}/api/v1/auth/login`, {
      data: { email, password: TEST_PASSWORD },
    });
    expect(login.status()).toBe(200);
  }
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return page;
}

/** A paid booking of today's next slot (the simulator approves 677… numbers by itself). */
async function payForNextSlot(name: string, phone: string) {
  const { slots } = await api<{
    slots: { id: string; start_time: { Microseconds: number }; available?: boolean }[];
    today?: string;
  }>(`/service/${serviceId}/slots`);
  const now = zonedNow('Africa/Douala', new Date());
  const slot = slots
    .filter((s) => s.start_time.Microseconds / 60_000_000 > now.minutes)
    .sort((a, b) => a.start_time.Microseconds - b.start_time.Microseconds)[0];
  if (!slot) throw new Error('no slot left today');
  const { payment } = await api<{
    payment: { payment_id: string; booking_id: string; access_key: string };
  }>('/payment/initiate', {
    method: 'POST',
    body: JSON.stringify({
      cus_name: name,
      cus_email: `${name.split(' ')[0]?.toLowerCase()}@example.cm`,
      phone_number: phone,
      amount: '2',
      currency: 'XAF',
      description: 'Service Payment',
      reference: randomUUID(),
      service_id: serviceId,
      slot_id: slot.id,
      date: now.date,
    }),
  });
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
      { timeout: 20_000, interval: 200 },
    )
    .toBe('SUCCESSFUL');
  return { bookingId: payment.booking_id, key: payment.access_key, code, name };
}

/** SMS of the queue queued for a number (the outbox is where every message leaves from). */
async function smsTo(phone: string) {
  return tdb.database.db
    .selectFrom('outbox')
    .select(['kind', 'text_body', 'locale', 'dedupe_key'])
    .where('channel', '=', 'sms')
    .where('to_address', '=', phone)
    .orderBy('created_at')
    .execute();
}

beforeAll(async () => {
  tdb = await createTestDatabase('postgres');
  if (!tdb.url) throw new Error('no PostgreSQL url');
  const db = tdb.database.db;
  // An organization open all day, so the morning can run whatever the hour.
  const org = await db
    .insertInto('organizations')
    .values({
      name: 'Mairie de Bonanjo',
      email: 'mairie@bonanjo.cm',
      time_zone: 'Africa/Douala',
      location: 'Rue Joss, Bonanjo, Douala',
      city: 'Douala',
      category: 'civil-registry',
      start_time: '00:00',
      end_time: '23:59',
      verified_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  orgId = org.id;
  const service = await db
    .insertInto('services')
    .values({
      organization_id: orgId,
      name: 'Birth certificate',
      name_fr: 'Acte de naissance',
      duration_minutes: 15,
      capacity: 4,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  serviceId = service.id;
  await syncServiceSlots(db, serviceId, new Date());
  await createUser(db, { email: 'chef@bonanjo.cm', role: 'org_admin', organizationId: orgId });
  await createUser(db, { email: 'awa@bonanjo.cm', role: 'staff', organizationId: orgId });
  await createUser(db, { email: 'paul@bonanjo.cm', role: 'staff', organizationId: orgId });
  server = await startServer({ env: { DATABASE_URL: tdb.url, SEED_DEMO: 'false' } });
  browser = await launch();
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
});

describe('a morning at the counter, in French at 360 px', () => {
  it('runs from setup to the last call, board and phones in step', async () => {
    const admin = await signIn('chef@bonanjo.cm');
    expect(admin.length).toBeGreaterThan(10);
    // Filled in once the screens land: see the report.
  }, 90_000);
});
