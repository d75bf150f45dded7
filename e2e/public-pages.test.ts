import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, DESKTOP, launch, MOBILE, seriousViolations, snap } from './support/browser';
import { type RunningServer, startServer } from './support/server';

let server: RunningServer;
let browser: Browser;
let pages: [name: string, path: string, ready: string][] = [];
/** Organization names in the API's order, which the list pages through unchanged. */
let organizationNames: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
  const { organizations } = (await (
    await fetch(`${server.origin}/api/v1/organizations`)
  ).json()) as {
    organizations: { organization_id: string; name: string }[];
  };
  organizationNames = organizations.map((o) => o.name);
  const org = organizations[0];
  if (!org) throw new Error('seed has no organization');
  const { services } = (await (
    await fetch(`${server.origin}/api/v1/organizations/${org.organization_id}/services`)
  ).json()) as { services: { service_id: string }[] };
  const service = services[0];
  if (!service) throw new Error('seed has no service');
  pages = [
    ['landing', '/', '.hero__title'],
    ['organizations', '/organizations', '.org-card'],
    ['services', `/${org.organization_id}/services`, '.service-card'],
    ['slots', `/service/${service.service_id}/slots`, 'button.slot'],
    ['contact', '/contact', 'form'],
    // The spec's hash link: the app turns it into /login before it renders.
    ['login', '/#/login', 'form'],
  ];
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('public pages', () => {
  for (const viewport of [MOBILE, DESKTOP]) {
    it(`have no serious axe issue, no horizontal overflow, and are screenshotted at ${viewport.width}×${viewport.height}`, async () => {
      // bypassCSP: the API's CSP (script-src 'self') would block injecting axe-core.
      const context = await browser.newContext({
        viewport,
        bypassCSP: true,
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      for (const [name, path, ready] of pages) {
        await page.goto(`${server.origin}${path}`);
        await page.locator(ready).first().waitFor();
        await page.waitForLoadState('networkidle');
        const overflow = await page.evaluate<number>(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        expect(overflow, `${name} overflows horizontally`).toBeLessThanOrEqual(0);
        await snap(page, {
          path: `${ARTIFACTS}/${name}-${viewport.width}.png`,
          fullPage: true,
        });
        const violations = await seriousViolations(page);
        expect(violations, `${name}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('pages through the organizations 12 at a time, and a search starts again at page 1', async () => {
    const pageSize = 12;
    const total = organizationNames.length;
    // The demo data must need exactly two pages for this test to mean anything.
    expect(total).toBeGreaterThan(pageSize);
    expect(total).toBeLessThanOrEqual(2 * pageSize);
    const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${server.origin}/#/organizations`);
    const names = page.locator('.org-card .org-card__name');
    const pager = page.getByRole('navigation', { name: 'Organizations pages' });
    const previous = pager.getByRole('button', { name: 'Previous', exact: true });
    const next = pager.getByRole('button', { name: 'Next', exact: true });
    const status = pager.locator('.pagination__status');

    await page.locator('.org-card').first().waitFor();
    await expect.poll(() => status.textContent()).toBe('Page 1 of 2');
    expect(await names.count()).toBe(pageSize);
    expect(await names.allTextContents()).toEqual(organizationNames.slice(0, pageSize));
    expect(await previous.isDisabled()).toBe(true);
    expect(await next.isEnabled()).toBe(true);

    await next.click();
    await expect.poll(() => status.textContent()).toBe('Page 2 of 2');
    await expect.poll(() => names.count()).toBe(total - pageSize);
    expect(await names.allTextContents()).toEqual(organizationNames.slice(pageSize));
    expect(await next.isDisabled()).toBe(true);
    expect(await previous.isEnabled()).toBe(true);
    await snap(page, {
      path: `${ARTIFACTS}/organizations-page2-${DESKTOP.width}.png`,
      fullPage: true,
    });

    await previous.click();
    await expect.poll(() => status.textContent()).toBe('Page 1 of 2');
    // The status names the page asked for at once; the list follows when it has loaded.
    await expect.poll(() => names.count()).toBe(pageSize);
    expect(await previous.isDisabled()).toBe(true);

    // Search from page 2: the list narrows to the matches on page 1 ...
    await next.click();
    await expect.poll(() => status.textContent()).toBe('Page 2 of 2');
    const search = page.getByLabel('Search organizations by name');
    await search.fill('centre');
    const matches = organizationNames.filter((n) => n.toLocaleLowerCase().includes('centre'));
    expect(matches.length).toBeGreaterThan(1);
    expect(matches.length).toBeLessThan(pageSize);
    await expect.poll(() => names.allTextContents()).toEqual(matches);
    expect(await status.textContent()).toBe('Page 1 of 1');
    expect(await previous.isDisabled()).toBe(true);
    expect(await next.isDisabled()).toBe(true);
    // ... and clearing it shows page 1 of the full list, not the page 2 the user was on.
    await search.fill('');
    await expect.poll(() => status.textContent()).toBe('Page 1 of 2');
    expect(await names.allTextContents()).toEqual(organizationNames.slice(0, pageSize));
    expect(await previous.isDisabled()).toBe(true);
    expect(await next.isEnabled()).toBe(true);
    await context.close();
  });

  it('opens the hamburger menu with an overlay under 768 px', async () => {
    const context = await browser.newContext({ viewport: MOBILE, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${server.origin}/`);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    await page.locator('.site-nav__overlay').waitFor();
    await snap(page, { path: `${ARTIFACTS}/menu-${MOBILE.width}.png` });
    await page.getByRole('link', { name: 'Register', exact: true }).click();
    await page.getByRole('heading', { name: 'Contact the Qless Team' }).waitFor();
    expect(await page.locator('.site-nav__overlay').count()).toBe(0);
    await context.close();
  });

  it('sends the contact form to the server and shows the success message in the page', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${server.origin}/#/contact`);
    await page.getByLabel('Organization name').fill('Hôpital de Test');
    await page.getByLabel('Email').fill('admin@hopital-test.cm');
    // The form asks for a contact person and a phone (decision 111).
    await page.getByLabel('Contact person').fill('Marie Ngo');
    await page.getByLabel('Phone number').fill('677 12 34 56');
    await page.getByLabel('Message').fill('We would like to join.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText("Request sent! We'll get back to you soon.").waitFor();
    expect(await page.getByLabel('Organization name').inputValue()).toBe('');
    await context.close();
  });

  it('shows the login failure toast', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${server.origin}/#/login`);
    await page.getByLabel('Email').fill('nobody@example.cm');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.locator('.toast').waitFor();
    await context.close();
  });

  it('switches to French, remembers it, and localizes dates', async () => {
    const context = await browser.newContext({
      viewport: DESKTOP,
      locale: 'en-GB',
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    await page.goto(`${server.origin}/`);
    await page.getByRole('heading', { name: 'Book your spot in seconds.' }).waitFor();
    await page.getByLabel('Language').selectOption('fr');
    await page
      .getByRole('heading', { name: 'Réservez votre place en quelques secondes.' })
      .waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await page.reload();
    await page
      .getByRole('heading', { name: 'Réservez votre place en quelques secondes.' })
      .waitFor();
    const slots = pages.find(([name]) => name === 'slots')?.[1] ?? '/';
    await page.goto(`${server.origin}${slots}`);
    await page.getByRole('heading', { name: 'Prendre un rendez-vous' }).waitFor();
    const month = (await page.locator('.week__title').textContent()) ?? '';
    const frMonths = [
      'janvier',
      'février',
      'mars',
      'avril',
      'mai',
      'juin',
      'juillet',
      'août',
      'septembre',
      'octobre',
      'novembre',
      'décembre',
    ];
    expect(frMonths.some((m) => month.toLowerCase().startsWith(m))).toBe(true);
    await snap(page, { path: `${ARTIFACTS}/slots-fr-1280.png` });
    await context.close();
  });
});
