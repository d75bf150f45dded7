import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../apps/api/src/db/database';
import { ARTIFACTS, DESKTOP, launch, MOBILE, snap } from './support/browser';
import { type RunningServer, startServer } from './support/server';

/**
 * The waitlist of a full day on a phone (issue 20): the full day of the strip can be chosen
 * and offers the form instead of its slots, in English and French; an offer's link
 * (`?date=…&slot=…`) opens the booking modal on that slot. The server runs from Monday
 * 30 November 2026, 08:15 in Douala; Wednesday 2 December is filled in its database.
 */
const START = new Date('2026-11-30T08:15:00+01:00');
const FULL_DAY = '2026-12-02';
const FREE_DAY = '2026-12-03';

let server: RunningServer;
let database: Database;
let browser: Browser;
let serviceId = '';
let freeSlotId = '';
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer({ env: { NODE_ENV: 'test', QLESS_FAKE_NOW: START.toISOString() } });
  if (!server.databaseUrl) throw new Error('this file needs the PostgreSQL engine');
  database = await openDatabase({ databaseUrl: server.databaseUrl, dataDir: null });
  const db = database.db;
  // A demo service of one seat per slot; every seat of Wednesday taken.
  const service = await db
    .selectFrom('services as s')
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .select(['s.id', 's.organization_id', 's.capacity'])
    .where('s.active', '=', true)
    .where('s.capacity', '=', 1)
    .where('o.verified_at', 'is not', null)
    .where('o.parent_id', 'is', null)
    .orderBy('s.name')
    .executeTakeFirstOrThrow();
  serviceId = service.id;
  const slots = await db
    .selectFrom('slots')
    .select('id')
    .where('service_id', '=', serviceId)
    .where('retired_at', 'is', null)
    .orderBy('start_time')
    .execute();
  freeSlotId = slots[Math.floor(slots.length / 2)]?.id ?? '';
  await db
    .insertInto('bookings')
    .values(
      slots.map((slot, i) => ({
        organization_id: service.organization_id,
        service_id: serviceId,
        slot_id: slot.id,
        booking_date: FULL_DAY,
        seat: 1,
        status: 'confirmed' as const,
        cus_name: 'Filler',
        cus_email: 'filler@example.cm',
        phone_number: `+23769${String(1_000_000 + i).slice(-7)}`,
        ticket_code: `QL-WAIT${String(i).padStart(3, '0')}`,
        hold_expires_at: null,
        confirmed_at: START,
        created_at: START,
        updated_at: START,
      })),
    )
    .execute();
  browser = await launch();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await database?.close();
  await server?.stop();
});

async function phonePage(
  lang: 'en' | 'fr',
  viewport: { width: number; height: number } = MOBILE,
): Promise<Page> {
  const context = await browser.newContext({
    viewport,
    locale: lang === 'fr' ? 'fr-CM' : 'en-GB',
    reducedMotion: 'reduce',
  });
  contexts.push(context);
  await context.addInitScript(`localStorage.setItem('qless.lang', '${lang}')`);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return page;
}

async function openFullDay(page: Page): Promise<void> {
  await page.goto(`${server.origin}/service/${serviceId}/slots`);
  await page.locator('html[data-live]').waitFor({ state: 'attached' });
  const day = page.locator(`button.strip-day[data-date="${FULL_DAY}"]`);
  await expect.poll(() => day.getAttribute('data-state')).toBe('full');
  await day.click();
  await page.locator('[data-waitlist="form"]').waitFor();
}

/** The whole page from its top (a full-page shot of a scrolled page repeats the sticky header). */
async function shoot(page: Page, name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await snap(page, { path: join(ARTIFACTS, name), fullPage: true });
}

describe('waitlist on a phone', () => {
  it('a full day offers the form; joining says the number is on the list, with no place (English)', async () => {
    const page = await phonePage('en');
    await openFullDay(page);
    await page.getByRole('heading', { name: 'This day is full' }).waitFor();
    await shoot(page, 'waitlist-360-en.png');
    await page.getByLabel('Mobile number').fill('6 77 55 44 33');
    await page.getByRole('button', { name: 'Text me if a seat frees' }).click();
    await page.locator('[data-waitlist="joined"]').waitFor();
    expect(await page.locator('[data-waitlist="joined"]').textContent()).toContain(
      "You're on the list for Wednesday, 2 December. We'll text you if a seat frees. A number that joined earlier keeps its first place.",
    );
    // How long an offer stays open: the organization's setting (15 min), not "a short while".
    expect(await page.locator('[data-waitlist="joined"]').textContent()).toContain(
      'The offer stays open 15 min, then goes to the next person',
    );
    await shoot(page, 'waitlist-joined-360-en.png');
    const width = await page.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    // The key answered at join takes the number off the list again.
    await page.getByRole('button', { name: 'Take me off the list' }).click();
    await page.locator('[data-waitlist="withdrawn"]').waitFor();
    const row = await database.db
      .selectFrom('waitlist_entries')
      .select('state')
      .where('phone', '=', '+237677554433')
      .where('booking_date', '=', FULL_DAY)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('withdrawn');
  });

  it('in French: a bad number is refused in words, a number already on the list is told so', async () => {
    const page = await phonePage('fr');
    await openFullDay(page);
    await page.getByRole('heading', { name: 'Ce jour est complet' }).waitFor();
    await page.getByLabel('Numéro de mobile').fill('12345');
    await page.getByRole('button', { name: 'Prévenez-moi par SMS' }).click();
    await page.getByText('Saisissez un numéro de mobile camerounais').first().waitFor();
    await shoot(page, 'waitlist-360-fr.png');
    await page.getByLabel('Numéro de mobile').fill('+237 677 55 44 22');
    await page.getByRole('button', { name: 'Prévenez-moi par SMS' }).click();
    await page.locator('[data-waitlist="joined"]').waitFor();
    await openFullDay(page);
    await page.getByLabel('Numéro de mobile').fill('6 77 55 44 22');
    await page.getByRole('button', { name: 'Prévenez-moi par SMS' }).click();
    await page.locator('[data-waitlist="already"]').waitFor();
    expect(await page.locator('[data-waitlist="already"]').textContent()).toContain(
      'Ce numéro est déjà sur la liste du mercredi 2 décembre.',
    );
    expect(await page.locator('[data-waitlist="already"]').textContent()).toContain(
      'L’offre reste ouverte 15\u00a0min, puis passe à la personne suivante',
    );
    await shoot(page, 'waitlist-already-360-fr.png');
  });

  it('on a wide screen the full day has a Waitlist button that shows the form under the week', async () => {
    const page = await phonePage('en', DESKTOP);
    await page.goto(`${server.origin}/service/${serviceId}/slots`);
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    const day = page.locator(`li.day[data-date="${FULL_DAY}"]`);
    await expect.poll(() => day.getAttribute('data-state')).toBe('full');
    await day.getByRole('button', { name: /Waitlist$/ }).click();
    await page.locator('[data-waitlist="form"]').waitFor();
    expect(await page.locator('[data-waitlist="form"]').textContent()).toContain(
      'Wednesday, 2 December',
    );
    await snap(page, { path: join(ARTIFACTS, 'waitlist-week-1280-en.png') });
  });

  it("an offer's link opens the booking modal on its slot, the number it was sent to filled in", async () => {
    const page = await phonePage('en');
    // As the server's /w/… redirect sends it: the number in the fragment (issue 30).
    await page.goto(
      `${server.origin}/service/${serviceId}/slots?date=${FREE_DAY}&slot=${freeSlotId}#tel=677554411`,
    );
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Thursday, 3 December');
    expect(await dialog.getByLabel('Mobile money number').inputValue()).toBe('677554411');
    expect(await dialog.getByLabel('Username').inputValue()).toBe('');
    // The address drops the offer and the number, so a reload does not open it again.
    expect(new URL(page.url()).search).toBe('');
    expect(new URL(page.url()).hash).toBe('');
    await snap(page, { path: join(ARTIFACTS, 'waitlist-offer-link-360-en.png') });
  });
});
