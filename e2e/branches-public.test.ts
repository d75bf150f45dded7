import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launch, MOBILE, seriousViolations, snap } from './support/browser';
import { type RunningServer, startServer } from './support/server';

/**
 * Branches for customers (issue 20) on a phone: the demo bank of four agencies in three
 * cities is one card of the catalogue, its picker filters by city and, once the phone shares
 * its position, puts the nearest agency first (measured on the phone: no map service); an
 * agency opens its own services, which lead back to the others.
 */
const BANK = 'Banque des Hauts Plateaux';
/** Rue Njo-Njo, Douala: 1.6 km from the Bonapriso agency, about 178 km from Bafoussam's two. */
const IN_DOUALA = { latitude: 4.045, longitude: 9.695 };

let server: RunningServer;
let browser: Browser;
let headId = '';
const contexts: BrowserContext[] = [];

/** Thin and no-break spaces (Intl, French typography) read as plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
  const { organizations } = (await (
    await fetch(`${server.origin}/api/v1/organizations?q=${encodeURIComponent('hauts plateaux')}`)
  ).json()) as {
    organizations: { organization_id: string; name: string; branch_count?: number }[];
  };
  const bank = organizations.find((o) => o.name === BANK);
  if (!bank || (bank.branch_count ?? 1) < 2) throw new Error(`demo data: no ${BANK} of branches`);
  headId = bank.organization_id;
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

describe('branches on a phone (issue 20)', () => {
  it('lists the bank once, filters its agencies by city, sorts them near me and opens one, in French', async () => {
    const context = await browser.newContext({
      viewport: MOBILE,
      locale: 'fr-FR',
      reducedMotion: 'reduce',
      // axe-core is injected into the page (the CSP would refuse it).
      bypassCSP: true,
      geolocation: IN_DOUALA,
      permissions: ['geolocation'],
    });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // The catalogue: one card for the bank, its agencies counted and their cities named.
    await page.goto(`${server.origin}/organizations?q=${encodeURIComponent('hauts plateaux')}`);
    const card = page.locator('.org-card', { hasText: BANK });
    await card.first().waitFor();
    expect(await card.count()).toBe(1);
    expect(plain(await card.locator('.org-card__location').textContent())).toBe(
      '4 agences · Bafoussam, Douala, Yaoundé',
    );
    expect(await card.getAttribute('href')).toBe(`/${headId}/branches`);
    await snap(page, { path: `${ARTIFACTS}/branches-card-fr-${MOBILE.width}.png` });

    // The picker: every agency, by city.
    await card.click();
    await page.getByRole('heading', { name: `Agences de ${BANK}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${headId}/branches`);
    const names = page.locator('.branch-card__name');
    const status = page.locator('.picker__count');
    await expect
      .poll(() => names.allTextContents())
      .toEqual(['Banengo', 'Marché B', 'Bonapriso', 'Mvan']);
    expect(plain(await status.textContent())).toBe('4 agences');
    await snap(page, { path: `${ARTIFACTS}/branches-fr-${MOBILE.width}.png`, fullPage: true });

    const cities = page.getByRole('list', { name: 'Ville' });
    await cities.getByRole('link', { name: 'Bafoussam' }).click();
    await expect.poll(() => names.allTextContents()).toEqual(['Banengo', 'Marché B']);
    expect(plain(await status.textContent())).toBe('2 agences à Bafoussam');
    expect(new URL(page.url()).search).toBe('?city=Bafoussam');
    expect(await cities.getByRole('link', { name: 'Bafoussam' }).getAttribute('aria-current')).toBe(
      'true',
    );
    await cities.getByRole('link', { name: 'Toutes les villes' }).click();
    await expect.poll(() => names.count()).toBe(4);

    // Near me: the phone's position (granted), the nearest agency first, with its distance.
    const nearMe = page.getByRole('button', { name: 'Près de moi' });
    expect(await nearMe.getAttribute('aria-pressed')).toBe('false');
    await nearMe.click();
    await expect.poll(() => nearMe.getAttribute('aria-pressed')).toBe('true');
    await expect
      .poll(() => names.allTextContents())
      .toEqual(['Bonapriso', 'Marché B', 'Banengo', 'Mvan']);
    expect(plain(await status.textContent())).toBe('4 agences, la plus proche d’abord');
    const distances = (await page.locator('.branch-card__distance').allTextContents()).map(plain);
    expect(distances[0]).toBe('à 1,6 km');
    expect(distances[3]).toBe('à 204 km');
    await snap(page, {
      path: `${ARTIFACTS}/branches-near-fr-${MOBILE.width}.png`,
      fullPage: true,
    });
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const violations = await seriousViolations(page);
    expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);

    // An agency opens its own services, which name it and lead back to the others.
    await page.locator('.branch-card', { hasText: 'Bonapriso' }).click();
    await page.locator('.service-card').first().waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/[0-9a-f-]{36}\/services$/);
    expect(new URL(page.url()).pathname).not.toBe(`/${headId}/services`);
    expect(plain(await page.locator('.services-branch__name').textContent())).toBe(
      'Agence Bonapriso',
    );
    await snap(page, {
      path: `${ARTIFACTS}/branch-services-fr-${MOBILE.width}.png`,
      fullPage: true,
    });
    await page.getByRole('link', { name: 'Autres agences' }).click();
    await page.getByRole('heading', { name: `Agences de ${BANK}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${headId}/branches`);
    expect(errors).toEqual([]);
  });

  it('renders a city on the server, hydrates without asking again, and says plainly when the position is refused, in English', async () => {
    // No permission granted: the browser refuses the page the position.
    const context = await browser.newContext({ viewport: MOBILE, locale: 'en-GB' });
    contexts.push(context);
    const page = await context.newPage();
    const messages: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') messages.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/')) asked.push(new URL(r.url()).pathname);
    });
    // Found by a branch's city, the bank's card opens its picker on that city.
    const found = await (await fetch(`${server.origin}/organizations?q=yaounde`)).text();
    expect(found).toContain(`href="/${headId}/branches?city=Yaound%C3%A9"`);
    // The first paint is the server's: the filtered agencies are in the HTML before any script.
    const path = `/${headId}/branches?city=douala`;
    const html = await (await fetch(`${server.origin}${path}`)).text();
    expect(html.match(/class="card branch-card"/g)?.length).toBe(1);
    await page.goto(`${server.origin}${path}`);
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    await page.getByRole('heading', { name: `Branches of ${BANK}` }).waitFor();
    expect(await page.locator('.branch-card__name').allTextContents()).toEqual(['Bonapriso']);
    expect(plain(await page.locator('.picker__count').textContent())).toBe('1 branch in Douala');
    expect(asked.filter((p) => p.endsWith('/branches'))).toEqual([]);

    await page.getByRole('link', { name: 'All cities' }).click();
    await expect.poll(() => page.locator('.branch-card').count()).toBe(4);
    await page.getByRole('button', { name: 'Near me' }).click();
    await page.getByRole('alert').getByText('Location is blocked for this site').waitFor();
    expect(await page.getByRole('button', { name: 'Near me' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    expect(await page.locator('.branch-card').count()).toBe(4);
    await snap(page, { path: `${ARTIFACTS}/branches-en-${MOBILE.width}.png`, fullPage: true });
    expect(messages).toEqual([]);
  });
});
