import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, DESKTOP, launch, MOBILE, snap } from './support/browser';
import { paidTicket } from './support/demo-ticket';
import { type RunningServer, startServer } from './support/server';

/**
 * Issue 30, items 8 and 12, on a 360 px phone: the booking form takes no e-mail (French and
 * English) and shows the 2 XAF fee as a fixed line; the slots page and the form name the
 * branch; the week is drawn from Monday; every tap target met on the way is 44 × 44 CSS px
 * at least. The server runs from Monday 30 November 2026, 08:15 in Douala.
 */
const START = new Date('2026-11-30T08:15:00+01:00');
const BANK = 'Banque des Hauts Plateaux';
const BRANCH = 'Banengo';
const PLACE = `${BANK} (${BRANCH})`;
const MIN_TAP = 44;

/** The screenshots: QLESS_SHOTS_DIR when set (the notes), else e2e/artifacts/booking. */
const SHOTS = process.env.QLESS_SHOTS_DIR ?? join(ARTIFACTS, 'booking');
mkdirSync(SHOTS, { recursive: true });

let server: RunningServer;
let browser: Browser;
let serviceId = '';
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer({ env: { NODE_ENV: 'test', QLESS_FAKE_NOW: START.toISOString() } });
  browser = await launch();
  const api = async <T>(path: string) =>
    (await (await fetch(`${server.origin}/api/v1${path}`)).json()) as T;
  const { organizations } = await api<{
    organizations: { organization_id: string; name: string; branch_name: string | null }[];
  }>(`/organizations?q=${encodeURIComponent('hauts plateaux')}`);
  const org = organizations.find((o) => o.name === BANK && o.branch_name === BRANCH);
  if (!org) throw new Error(`demo data lacks ${PLACE}`);
  const { services } = await api<{ services: { service_id: string }[] }>(
    `/organizations/${org.organization_id}/services`,
  );
  serviceId = services[0]?.service_id ?? '';
  if (!serviceId) throw new Error(`${PLACE} has no service`);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

async function newPage(
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

async function openSlots(page: Page): Promise<void> {
  await page.goto(`${server.origin}/service/${serviceId}/slots`);
  await page.locator('html[data-live]').waitFor({ state: 'attached' });
  await page.locator('button.slot[data-state="free"]').first().waitFor();
}

/** Width and height of each element (CSS px), named for the failure message. */
async function sizes(locator: Locator, name: string): Promise<[string, number, number][]> {
  const count = await locator.count();
  expect(count, `${name}: none on the page`).toBeGreaterThan(0);
  const out: [string, number, number][] = [];
  for (let i = 0; i < count; i += 1) {
    const box = await locator.nth(i).boundingBox();
    if (!box) throw new Error(`${name} ${i} is not displayed`);
    out.push([`${name} ${i}`, Math.round(box.width * 10) / 10, Math.round(box.height * 10) / 10]);
  }
  return out;
}

const tooSmall = (measured: [string, number, number][]) =>
  measured.filter(([, w, h]) => w < MIN_TAP || h < MIN_TAP);

/** The form's steps: a free slot of today, then name and number, no e-mail. */
async function fillWithoutEmail(page: Page, lang: 'en' | 'fr'): Promise<Locator> {
  await page.locator('button.slot[data-state="free"]').first().click();
  const dialog = page.locator('dialog[open]');
  await dialog.waitFor();
  await dialog.getByLabel(lang === 'fr' ? 'Nom' : 'Username', { exact: true }).fill('Awa Ngono');
  await dialog
    .getByLabel(lang === 'fr' ? 'Numéro mobile money' : 'Mobile money number')
    .fill('677 800 123');
  return dialog;
}

describe('booking form and slots page on a 360 px phone (issue 30)', () => {
  it('in French: Next works with no e-mail; the fee is a fixed line; the branch is named', async () => {
    const page = await newPage('fr');
    await openSlots(page);
    await page.getByRole('heading', { name: 'Prendre un rendez-vous', level: 1 }).waitFor();
    expect(await page.locator('.page-lead').textContent()).toContain(PLACE);
    await snap(page, { path: join(SHOTS, 'slots-360-fr.png'), fullPage: true });

    const dialog = await fillWithoutEmail(page, 'fr');
    expect(await dialog.locator('.booking__slot').textContent()).toContain(PLACE);
    // The e-mail says it is optional; the fee is a line, not a one-option select.
    await dialog.getByLabel('E-mail (facultatif)').waitFor();
    expect(await dialog.locator('select').count()).toBe(0);
    expect(await dialog.locator('[data-fee]').textContent()).toMatch(
      /^Frais de plateforme\s*2\s*FCFA$/,
    );
    const width = await page.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await snap(dialog, { path: join(SHOTS, 'form-360-fr.png') });
    await dialog.locator('[data-fee]').scrollIntoViewIfNeeded();
    await snap(page, { path: join(SHOTS, 'form-360-fr-fee.png') });

    await dialog.getByRole('button', { name: 'Suivant', exact: true }).click();
    await dialog.getByRole('heading', { name: 'Confirmez les détails du rendez-vous' }).waitFor();
    const row = (key: string) => dialog.locator(`[data-row="${key}"] dd`).textContent();
    expect(await row('booking.row.email')).toBe('—');
    expect(await row('booking.row.organization')).toBe(PLACE);
    await snap(dialog, { path: join(SHOTS, 'confirm-360-fr.png') });
  });

  it('in English: the same, and the title in sentence case', async () => {
    const page = await newPage('en');
    await openSlots(page);
    await page.getByRole('heading', { name: 'Book an appointment', level: 1 }).waitFor();
    expect(await page.getByText('Book An Appointment', { exact: true }).count()).toBe(0);
    await snap(page, { path: join(SHOTS, 'slots-360-en.png'), fullPage: true });
    const dialog = await fillWithoutEmail(page, 'en');
    await dialog.getByLabel('Email (optional)').waitFor();
    expect(await dialog.locator('[data-fee]').textContent()).toMatch(/^Platform fee\s*2\s*XAF$/);
    await snap(dialog, { path: join(SHOTS, 'form-360-en.png') });
    await dialog.getByRole('button', { name: 'Next', exact: true }).click();
    await dialog.getByRole('heading', { name: 'Confirm Appointment Details' }).waitFor();
    expect(await dialog.locator('[data-row="booking.row.email"] dd').textContent()).toBe('—');
  });

  it('draws the French week from Monday on a wide screen; the bank is closed at the weekend', async () => {
    const page = await newPage('fr', DESKTOP);
    await page.goto(`${server.origin}/service/${serviceId}/slots`);
    await page.locator('li.day').first().waitFor();
    const days = page.locator('li.day');
    expect(await days.first().getAttribute('data-date')).toBe('2026-11-30');
    expect(await days.first().locator('.day__weekday').textContent()).toMatch(/^lun/);
    expect(await days.last().locator('.day__weekday').textContent()).toMatch(/^dim/);
    // A bank opens Monday to Friday (the demo's was open seven days).
    expect(await page.locator('li.day[data-date="2026-12-05"]').getAttribute('data-state')).toBe(
      'closed',
    );
    expect(await page.locator('li.day[data-date="2026-12-06"]').getAttribute('data-state')).toBe(
      'closed',
    );
    await snap(page, { path: join(SHOTS, 'slots-week-1280-fr.png') });
  });

  it('makes every tap target met here 44 × 44 CSS px at least', async () => {
    const page = await newPage('fr');
    await page.goto(`${server.origin}/`);
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    const measured = [
      ...(await sizes(page.locator('.lang-switch__select'), 'language select')),
      ...(await sizes(page.locator('.hero__dot'), 'slider dot')),
    ];
    await openSlots(page);
    measured.push(
      ...(await sizes(page.getByRole('button', { name: 'Semaine précédente' }), 'previous week')),
      ...(await sizes(page.getByRole('button', { name: 'Semaine suivante' }), 'next week')),
      ...(await sizes(page.locator('button.strip-day'), 'day chip')),
    );
    const ticket = await paidTicket(server.origin, serviceId);
    await page.goto(`${server.origin}${ticket.link}`);
    await page.locator('a.ticket-rows__sub').first().waitFor();
    measured.push(...(await sizes(page.locator('a.ticket-rows__sub'), 'map link')));
    console.log('[tap targets at 360 px]', JSON.stringify(measured));
    expect(tooSmall(measured)).toEqual([]);
  });
});
