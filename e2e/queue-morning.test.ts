import { randomUUID } from 'node:crypto';
import { zonedNow } from '@qless/contract/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockStartingAt } from '../apps/api/src/core/clock';
import { syncServiceSlots } from '../apps/api/src/modules/slots/slots.repository';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { launch, MOBILE, shotsDir, snap } from './support/browser';
import { settled } from './support/counter-clerk';
import { nextMonday } from './support/days';
import { type RunningServer, startServer } from './support/server';

/**
 * Issue 19's "done when": a morning at the counter, in French at 360 px, against the real
 * server on PostgreSQL. An admin sets up two counters and a board; two booked customers
 * (paid through the simulator, checked in at the counter) and three walk-ins (one from the
 * QR poster's page, two added by staff) enter; two clerks call, serve, recall and mark a
 * no-show; the board (1920×1080) and each customer's page show the right number at each
 * step; the SMS "you are next" and "go to the counter" leave once each (read in the outbox).
 */
/**
 * The morning: a Monday at 08:10 in Douala, ahead of the real date (QLESS_FAKE_NOW). On the
 * real today the file booked "the next slot" and failed late in the evening, when none was
 * left (issue 29). The test's own reading of "now" runs on the same clock as the server's.
 */
const TZ = 'Africa/Douala';
const START = new Date(`${nextMonday(zonedNow(TZ, new Date()).date)}T08:10:00+01:00`);
const clock = clockStartingAt(START);

const SCREENS = shotsDir('queue');

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

/** A browser page of its own (cookies, storage), in French. */
async function newPage(
  viewport: { width: number; height: number } = MOBILE,
  email?: string,
): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'fr-FR', reducedMotion: 'reduce' });
  contexts.push(context);
  // The page's timers on a clock the test can move (`settled`, before each press).
  await context.clock.install();
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
  const now = zonedNow(TZ, clock.now());
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
      cus_email: `customer${phone.slice(-3)}@example.cm`,
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
  // An organization open all day: the morning's slots are all ahead of 08:10.
  const org = await db
    .insertInto('organizations')
    .values({
      name: 'Mairie de Bonanjo',
      email: 'mairie@bonanjo.cm',
      time_zone: TZ,
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
  await syncServiceSlots(db, serviceId, clock.now());
  await createUser(db, { email: 'chef@bonanjo.cm', role: 'org_admin', organizationId: orgId });
  await createUser(db, { email: 'awa@bonanjo.cm', role: 'staff', organizationId: orgId });
  await createUser(db, { email: 'paul@bonanjo.cm', role: 'staff', organizationId: orgId });
  server = await startServer({
    env: {
      DATABASE_URL: tdb.url,
      SEED_DEMO: 'false',
      NODE_ENV: 'test',
      QLESS_FAKE_NOW: START.toISOString(),
    },
  });
  browser = await launch();
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
});

type Board = { serving: Record<string, string>; next: string[] };

/** What the board on the wall shows now: each counter's number, and the next ones. */
async function boardNow(page: Page): Promise<Board> {
  const rows = await page
    .locator('.board__row')
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.querySelector('.board__counter')?.textContent?.trim() ?? '',
        tr.querySelector('.board__number')?.textContent?.trim() ?? '',
      ]),
    );
  const next = await page.locator('.board__next-list li').allTextContents();
  return { serving: Object.fromEntries(rows), next: next.map((n) => n.trim()) };
}

let shots = 0;
async function shot(page: Page, name: string): Promise<void> {
  shots += 1;
  await snap(page, { path: `${SCREENS}/queue-${String(shots).padStart(2, '0')}-${name}.png` });
}

/** A customer's page: the number it shows and its one sentence. */
const turnOf = async (page: Page) => ({
  number: (await page.locator('.turn-card__number').textContent())?.trim() ?? '',
  // Spaces normalized: the page keeps "Guichet 1" together with a no-break space.
  message: ((await page.getByTestId('turn-message').textContent()) ?? '')
    .replace(/\s+/g, ' ')
    .trim(),
});

async function counterScreen(email: string, counter: string): Promise<Page> {
  const page = await newPage(MOBILE, email);
  await page.goto(`${server.origin}/organization/queue`);
  await page.getByRole('combobox', { name: 'Votre guichet' }).selectOption({ label: counter });
  await page.getByRole('button', { name: 'Ouvrir', exact: true }).click();
  await expect.poll(() => page.getByTestId('counter-state').textContent()).toBe('Ouvert');
  return page;
}

/** Presses the counter's main button (Call next, Start, Done), past its settle. */
async function press(page: Page, button: string, done: string): Promise<void> {
  await settled(page);
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.getByText(done, { exact: true }).first().waitFor();
}

describe('a morning at the counter, in French at 360 px', () => {
  it('runs from setup to the last call, board and phones in step', async () => {
    // The admin sets up the queue: rules (the "you are next" SMS at the 1st place, the
    // poster's page on), two counters and a board link.
    const setup = await newPage(MOBILE, 'chef@bonanjo.cm');
    await setup.goto(`${server.origin}/organization/queue/setup`);
    await setup.getByRole('heading', { name: 'Réglage de la file' }).waitFor();
    await setup.getByLabel(/Envoyer le SMS « votre tour approche »/).fill('1');
    // One recall before a no-show (decision 118: No-show waits for the recalls set here).
    await setup.getByLabel('Rappels avant de marquer absent').fill('1');
    await setup
      .getByLabel('Les visiteurs peuvent rejoindre la file par le QR code de l’affiche')
      .check();
    await setup.getByRole('button', { name: 'Enregistrer les règles' }).click();
    await setup.getByText('Règles enregistrées.').waitFor();
    for (const name of ['Guichet 1', 'Guichet 2']) {
      await setup.getByLabel('Nom du guichet', { exact: true }).fill(name);
      await setup.getByRole('button', { name: 'Ajouter le guichet' }).click();
      await setup.getByText(`${name} ajouté.`).waitFor();
    }
    await setup.getByLabel('Nom de l’écran', { exact: true }).fill('Grande salle');
    await setup.getByRole('button', { name: 'Créer un lien d’écran' }).click();
    const boardLink = await setup.getByTestId('board-link').inputValue();
    expect(boardLink).toMatch(/\/board\/[\w-]{20,}$/);
    await shot(setup, 'setup-360');
    expect(await setup.evaluate<boolean>('document.documentElement.scrollWidth <= 360')).toBe(true);

    const board = await newPage({ width: 1920, height: 1080 });
    await board.goto(boardLink);
    await board.getByRole('heading', { name: 'Mairie de Bonanjo' }).waitFor();
    // No counter is open yet: the board lists none.
    await expect.poll(() => boardNow(board)).toEqual({ serving: {}, next: [] });

    // Two booked customers, paid through the simulator, checked in at the Today screen.
    const [ada, bea] = [
      await payForNextSlot('Ada Nkem', '677000201'),
      await payForNextSlot('Béa Manga', '677000202'),
    ];
    if (!ada || !bea) throw new Error('bookings');
    const today = await newPage(MOBILE, 'awa@bonanjo.cm');
    await today.goto(`${server.origin}/organization/today`);
    for (const b of [ada, bea]) {
      await today.getByLabel(/Code du ticket/).fill(b.code);
      await today.getByRole('button', { name: /^Enregistrer$/ }).click();
      await expect
        .poll(async () => {
          const row = await tdb.database.db
            .selectFrom('visits')
            .select('id')
            .where('booking_id', '=', b.bookingId)
            .executeTakeFirst();
          return row !== undefined;
        })
        .toBe(true);
      expect(await today.getByTestId('checkin-result').textContent()).toMatch(
        /^Arrivée enregistrée/,
      );
    }
    const ticket = async (b: typeof ada) => {
      const page = await newPage();
      await page.goto(`${server.origin}/ticket/${b.code}?k=${encodeURIComponent(b.key)}`);
      await page.locator('.turn-card__number').waitFor();
      return page;
    };
    const adaPage = await ticket(ada);
    const beaPage = await ticket(bea);
    await expect
      .poll(() => turnOf(adaPage))
      .toEqual({ number: 'A-001', message: expect.stringMatching(/^Vous êtes le 1er/) });
    await expect
      .poll(() => turnOf(beaPage))
      .toEqual({ number: 'A-002', message: expect.stringMatching(/^Vous êtes le 2e/) });

    // A walk-in scans the poster: the join page, with a phone for the SMS.
    const chloe = await newPage();
    await chloe.goto(`${server.origin}/join/${orgId}`);
    await chloe.getByLabel('Votre nom').fill('Chloé Ewane');
    await chloe.getByLabel('Téléphone mobile (facultatif)').fill(WALK_IN_PHONE);
    await chloe.getByRole('button', { name: 'Rejoindre la file' }).click();
    await chloe.waitForURL(/\/visit\//);
    await expect
      .poll(() => turnOf(chloe))
      .toEqual({ number: 'A-003', message: expect.stringMatching(/^Vous êtes le 3e/) });
    await shot(chloe, 'walk-in-joined-360');

    // The clerks open their counters; Paul adds two walk-ins at the counter.
    const awa = await counterScreen('awa@bonanjo.cm', 'Guichet 1');
    const paul = await counterScreen('paul@bonanjo.cm', 'Guichet 2');
    for (const [name, number] of [
      ['Didier Fotso', 'A-004'],
      ['Esther Kom', 'A-005'],
    ] as const) {
      await paul.getByLabel('Nom', { exact: true }).fill(name);
      await paul.getByRole('button', { name: 'Ajouter à la file' }).click();
      await paul.getByText(`${name} a le numéro ${number}.`).waitFor();
    }
    await expect
      .poll(() => boardNow(board))
      .toEqual({
        serving: { 'Guichet 1': '—', 'Guichet 2': '—' },
        next: ['A-001', 'A-002', 'A-003', 'A-004', 'A-005'],
      });
    await shot(board, 'board-1080-five-waiting');
    await shot(awa, 'counter-360-open');

    // Awa calls the first booked customer; Paul the second: Chloé becomes 1st ("you are next").
    await press(awa, 'Appeler le suivant', 'A-001 appelé.');
    await expect
      .poll(() => turnOf(adaPage))
      .toEqual({ number: 'A-001', message: 'Allez au Guichet 1' });
    await expect
      .poll(() => turnOf(beaPage))
      .toMatchObject({ message: expect.stringMatching(/^Vous êtes le 1er/) });
    await expect
      .poll(() => boardNow(board))
      .toEqual({
        serving: { 'Guichet 1': 'A-001', 'Guichet 2': '—' },
        next: ['A-002', 'A-003', 'A-004', 'A-005'],
      });
    await shot(board, 'board-1080-a001-called');
    await press(paul, 'Appeler le suivant', 'A-002 appelé.');
    await expect
      .poll(() => turnOf(beaPage))
      .toEqual({ number: 'A-002', message: 'Allez au Guichet 2' });
    await expect
      .poll(() => turnOf(chloe))
      .toMatchObject({ message: expect.stringMatching(/^Vous êtes le 1er/) });
    await expect
      .poll(() => boardNow(board))
      .toEqual({
        serving: { 'Guichet 1': 'A-001', 'Guichet 2': 'A-002' },
        next: ['A-003', 'A-004', 'A-005'],
      });

    // Awa serves Ada, then calls Chloé, who does not come: a recall, then a no-show.
    await press(awa, 'Commencer', 'A-001 en cours de service.');
    await expect
      .poll(() => turnOf(adaPage))
      .toMatchObject({ message: 'On s’occupe de vous au Guichet 1' });
    await press(awa, 'Terminé', 'A-001 terminé.');
    await expect
      .poll(() => turnOf(adaPage))
      .toMatchObject({ message: 'Votre passage est terminé. Merci !' });
    await press(awa, 'Appeler le suivant', 'A-003 appelé.');
    await expect
      .poll(() => turnOf(chloe))
      .toEqual({ number: 'A-003', message: 'Allez au Guichet 1' });
    await shot(chloe, 'walk-in-called-360');
    await press(awa, 'Rappeler', 'A-003 rappelé.');
    await chloe.getByText('Nouvel appel : venez maintenant').waitFor();
    await expect
      .poll(() => boardNow(board))
      .toEqual({
        serving: { 'Guichet 1': 'A-003', 'Guichet 2': 'A-002' },
        next: ['A-004', 'A-005'],
      });
    await shot(board, 'board-1080-a003-recalled');
    await press(awa, 'Absent', 'A-003 marqué absent.');
    await expect
      .poll(() => turnOf(chloe))
      .toMatchObject({ number: 'A-003', message: expect.not.stringMatching(/Guichet/) });

    // Paul finishes with Béa and calls Didier; Awa calls Esther.
    await press(paul, 'Commencer', 'A-002 en cours de service.');
    await press(paul, 'Terminé', 'A-002 terminé.');
    await press(paul, 'Appeler le suivant', 'A-004 appelé.');
    await press(awa, 'Appeler le suivant', 'A-005 appelé.');
    await expect
      .poll(() => boardNow(board))
      .toEqual({
        serving: { 'Guichet 1': 'A-005', 'Guichet 2': 'A-004' },
        next: [],
      });
    await shot(board, 'board-1080-last-calls');
    await shot(paul, 'counter-360-called');
    for (const page of [awa, paul, chloe, adaPage]) {
      expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= 360')).toBe(
        true,
      );
    }

    // Chloé's phone got "you are next" and "go to Guichet 1", once each, in French.
    const sms = await smsTo(WALK_IN_E164);
    expect(sms.map((m) => m.kind).sort(), JSON.stringify(sms)).toHaveLength(2);
    expect(new Set(sms.map((m) => m.kind)).size).toBe(2);
    const called = sms.find((m) => m.text_body?.includes('Guichet 1'));
    expect(called?.text_body).toContain('A-003');
    const near = sms.find((m) => m !== called);
    expect(near?.text_body).toContain('A-003');
    expect(sms.every((m) => m.locale === 'fr')).toBe(true);
    // The board never shows a name or a phone number.
    const wall = (await board.locator('body').textContent()) ?? '';
    for (const secret of ['Ada', 'Béa', 'Chloé', 'Didier', 'Esther', '677']) {
      expect(wall).not.toContain(secret);
    }
  }, 120_000);
});
