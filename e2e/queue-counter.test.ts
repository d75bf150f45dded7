import { zonedNow } from '@qless/contract/core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTicketCode } from '../apps/api/src/modules/tickets/ticket-code';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { launch, seriousViolations, shotsDir, snap } from './support/browser';
import {
  COUNTER_WORDS,
  clerkPage,
  counterNotice,
  heldNumber,
  mainSpot,
  takeCounter,
} from './support/counter-clerk';
import { nextWeekdayAtTen } from './support/days';
import { type RunningServer, startServer } from './support/server';

/**
 * A clerk at 360 px in French (issue 30 item 1, 3 and 4): a double tap on "Call next" leaves
 * the visitor called; No-show waits for the recall and says why; a no-show is undone; a
 * no-show who came back is put back at their place; the check-in gives the number to read
 * out and warns that no counter is open; the top bar knows the clerk is signed in.
 * Screenshots of the counter screen at 360 px in French and English go to
 * shotsDir('counter') (support/browser.ts).
 */
const SHOTS = shotsDir('counter');
const EMAIL = 'counter-clerk@e2e.cm';

let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let org: { id: string; time_zone: string };
let services: { id: string; name: string; name_fr: string | null }[] = [];
let day = '';

const visitState = async (name: string) =>
  (
    await tdb.database.db
      .selectFrom('visits')
      .select('state')
      .where('organization_id', '=', org.id)
      .where('customer_name', '=', name)
      .executeTakeFirstOrThrow()
  ).state;

beforeAll(async () => {
  tdb = await createTestDatabase('postgres');
  if (!tdb.url) throw new Error('no PostgreSQL url');
  const now = nextWeekdayAtTen();
  server = await startServer({ env: { DATABASE_URL: tdb.url, QLESS_FAKE_NOW: now.toISOString() } });
  browser = await launch();
  const db = tdb.database.db;
  const rows = await db
    .selectFrom('organizations as o')
    .innerJoin('services as s', 's.organization_id', 'o.id')
    .select(['o.id', 'o.time_zone', 's.id as service_id', 's.name', 's.name_fr'])
    .where('s.active', '=', true)
    .orderBy('o.name', 'desc')
    .orderBy('s.name')
    .execute();
  const byOrg = new Map<string, typeof rows>();
  for (const r of rows) byOrg.set(r.id, [...(byOrg.get(r.id) ?? []), r]);
  const chosen = [...byOrg.values()].find((list) => list.length >= 2);
  if (!chosen?.[0]) throw new Error('no organization with two services');
  org = { id: chosen[0].id, time_zone: chosen[0].time_zone };
  services = chosen.map((r) => ({ id: r.service_id, name: r.name, name_fr: r.name_fr }));
  await db
    .updateTable('organizations')
    .set({ open_days: 127, start_time: '07:00', end_time: '20:00', queue_max_recalls: 1 })
    .where('id', '=', org.id)
    .execute();
  day = zonedNow(org.time_zone, now).date;
  await createUser(db, { email: EMAIL, role: 'org_admin', organizationId: org.id });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
});

/** A confirmed booking of today for the first service, its ticket code. */
async function bookToday(name: string): Promise<string> {
  const db = tdb.database.db;
  const service = services[0];
  if (!service) throw new Error('no service');
  const slot = await db
    .selectFrom('slots')
    .select('id')
    .where('service_id', '=', service.id)
    .where('retired_at', 'is', null)
    .orderBy('start_time')
    .executeTakeFirstOrThrow();
  const code = generateTicketCode();
  await db
    .insertInto('bookings')
    .values({
      organization_id: org.id,
      service_id: service.id,
      slot_id: slot.id,
      booking_date: day,
      seat: 902,
      status: 'confirmed',
      cus_name: name,
      cus_email: 'esther@example.cm',
      phone_number: '+237677009902',
      ticket_code: code,
      confirmed_at: new Date(),
    })
    .execute();
  return code;
}

describe('a clerk at the counter, in French at 360 px', () => {
  it('double tap leaves the visitor called; no-show waits for the recall, is undone, and comes back', async () => {
    const w = COUNTER_WORDS.fr;
    const clerk = await clerkPage(
      browser,
      server.origin,
      { email: EMAIL, password: TEST_PASSWORD },
      'fr',
    );
    const { page, context } = clerk;
    const api = (path: string, data: unknown) =>
      context.request.post(`${server.origin}/api/v1${path}`, {
        data: data as object,
        headers: { origin: server.origin },
      });
    const first = services[0]?.id ?? '';
    expect(
      (await api('/queue/counters', { name: 'Guichet 1', service_ids: [first] })).status(),
    ).toBe(201);

    // Queue setup offers where a transfer stands; by arrival unless the branch chose first.
    await page.goto(`${server.origin}/organization/queue/setup`);
    const place = page.getByTestId('transfer-place');
    await place.getByLabel(/garde sa place/).waitFor();
    expect(await place.getByLabel(/garde sa place/).isChecked()).toBe(true);
    await snap(place, { path: `${SHOTS}/setup-transfer-place-360-fr.png` });

    // At check-in, no counter is open yet: the number to read out, and a neutral warning.
    const code = await bookToday('Esther Réservée');
    await page.goto(`${server.origin}/organization/today`);
    await page.getByLabel('Code du ticket').fill(code);
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    const number = page.getByTestId('checkin-queue-number');
    await expect.poll(() => number.textContent(), { timeout: 10_000 }).toMatch(/[A-Z]-\d{3}$/);
    await page.getByTestId('checkin-no-counter').waitFor();
    await page.locator('.checkin-result').scrollIntoViewIfNeeded();
    await snap(page, { path: `${SHOTS}/checkin-number-360-fr.png` });
    // Signed in: the top bar has no "Inscription" nor "Connexion".
    expect(await page.locator('.site-nav a', { hasText: 'Inscription' }).count()).toBe(0);
    expect(await page.locator('.site-nav a', { hasText: 'Connexion' }).count()).toBe(0);

    for (const name of ['Awa Sans-Téléphone', 'Bello Ensuite']) {
      expect((await api('/queue/visits', { service_id: first, name })).status()).toBe(201);
    }
    await page.goto(`${server.origin}/organization/queue`);
    await takeCounter(clerk, 'Guichet 1', 'fr');
    // This counter's order first: the booked visitor is 1er for this counter.
    await page.getByTestId('queue-line-mine').getByText('1er pour vous').waitFor();
    expect(await page.getByTestId('queue-line').textContent()).not.toMatch(/\b1e\b/);
    await page.locator('[data-slot="main"]:not([disabled])').waitFor();
    await snap(page, { path: `${SHOTS}/counter-idle-360-fr.png`, fullPage: true });

    // Serve the booked visitor to the end, so Awa (no phone) is next.
    await page.getByRole('button', { name: w.callNext }).click();
    await page.getByRole('button', { name: w.start }).click();
    await page.getByRole('button', { name: w.done }).click();
    await expect.poll(() => heldNumber(page)).toBeNull();

    // Call next, then the same spot again 1.2 s after the first tap (the clerk):
    // Awa is still called. Timed from the tap, not from when the test saw the answer, which
    // under a loaded machine can come late enough to put 1.2 s beyond the button's settling.
    const spot = await mainSpot(page);
    const tapped = Date.now();
    await page.mouse.click(spot.x, spot.y);
    await page.getByTestId('held-visit').getByText('Awa Sans-Téléphone').waitFor();
    await page.waitForTimeout(Math.max(0, tapped + 1200 - Date.now()));
    await page.mouse.click(spot.x, spot.y);
    await page.waitForTimeout(500);
    expect(await visitState('Awa Sans-Téléphone')).toBe('called');
    await page.getByTestId('held-visit').getByText('Appelé').waitFor();
    await snap(page, { path: `${SHOTS}/counter-called-360-fr.png`, fullPage: true });
    // No-show is not where Call next was, and waits for the recall, saying why.
    const noShow = page.getByRole('button', { name: w.noShow });
    const box = await noShow.boundingBox();
    expect(box && spot.y >= box.y && spot.y <= box.y + box.height).toBe(false);
    expect(await noShow.isDisabled()).toBe(true);
    await page
      .getByTestId('no-show-note')
      .getByText(/encore 1 sur 1/)
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Recalled once (the setting), then marked absent: undone within the 10 s.
    await page.getByRole('button', { name: w.recall }).click();
    await expect.poll(() => noShow.isDisabled()).toBe(false);
    await noShow.click();
    await expect.poll(() => counterNotice(page).textContent()).toMatch(/marqué absent\.$/);
    await snap(page, { path: `${SHOTS}/counter-no-show-undo-360-fr.png`, fullPage: true });
    await page.getByRole('button', { name: w.undo }).click();
    await expect.poll(() => visitState('Awa Sans-Téléphone')).toBe('called');
    await page.getByTestId('held-visit').getByText('Awa Sans-Téléphone').waitFor();
    await expect.poll(() => counterNotice(page).textContent()).toMatch(/^Annulé/);

    // Marked absent again (no undo this time); she comes back from the toilet: back in line,
    // ahead of Bello who arrived after her.
    await expect.poll(() => noShow.isDisabled()).toBe(false);
    await noShow.click();
    await expect.poll(() => visitState('Awa Sans-Téléphone')).toBe('no_show');
    const back = page.getByTestId('no-show-list').getByRole('button', { name: w.back });
    await back.waitFor();
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= 360')).toBe(true);
    await snap(page, { path: `${SHOTS}/counter-no-shows-360-fr.png`, fullPage: true });
    await back.click();
    await expect.poll(() => visitState('Awa Sans-Téléphone')).toBe('waiting');
    const mine = page.getByTestId('queue-line-mine').locator('li');
    await expect.poll(() => mine.first().textContent()).toContain('Awa Sans-Téléphone');
    expect(await mine.nth(1).textContent()).toContain('Bello Ensuite');
    const events = await tdb.database.db
      .selectFrom('visit_events as e')
      .innerJoin('visits as v', 'v.id', 'e.visit_id')
      .select('e.kind')
      .where('v.customer_name', '=', 'Awa Sans-Téléphone')
      .orderBy('e.id')
      .execute();
    expect(events.map((e) => e.kind)).toEqual([
      'entered_staff',
      'called',
      'recalled',
      'no_show',
      'undone_no_show',
      'no_show',
      'returned',
    ]);
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= 360')).toBe(true);
    await context.close();

    // The same screen in English.
    const en = await clerkPage(
      browser,
      server.origin,
      { email: EMAIL, password: TEST_PASSWORD },
      'en',
    );
    await takeCounter(en, 'Guichet 1', 'en');
    // A walk-in's "has number" stays until the clerk's next act, not after it.
    const walkIn = en.page.locator('form.queue-walkin');
    await walkIn.getByLabel('Service').selectOption({ index: 1 });
    await walkIn.getByLabel('Name').fill('Chi Walk-in');
    await walkIn.getByRole('button', { name: 'Add to the queue' }).click();
    const added = walkIn.getByText(/^Chi Walk-in has number [A-Z]-\d{3}\.$/);
    await added.waitFor();
    await en.page.locator('[data-slot="main"]:not([disabled])').click();
    await expect.poll(() => added.count()).toBe(0);
    await en.page.getByTestId('held-visit').getByText('Awa Sans-Téléphone').waitFor();
    await en.page.getByTestId('no-show-note').waitFor();
    await en.page.locator('[data-slot="main"]:not([disabled])').waitFor();
    await snap(en.page, { path: `${SHOTS}/counter-called-360-en.png`, fullPage: true });
    await en.context.close();
  });
});
