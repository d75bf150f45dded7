/**
 * The stylesheet is inlined into index.html and allowed by the CSP's hash (decision 108):
 * with the real CSP (no bypass), pages are styled, no stylesheet is fetched, and the browser
 * reports no CSP violation.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, MOBILE } from './support/browser';
import { type RunningServer, startServer } from './support/server';

let server: RunningServer;
let browser: Browser;
let serviceId = '';

beforeAll(async () => {
  server = await startServer({ engine: 'pglite' });
  browser = await launch();
  const { organizations } = (await (
    await fetch(`${server.origin}/api/v1/organizations`)
  ).json()) as { organizations: { organization_id: string }[] };
  const org = organizations[0];
  if (!org) throw new Error('seed has no organization');
  const { services } = (await (
    await fetch(`${server.origin}/api/v1/organizations/${org.organization_id}/services`)
  ).json()) as { services: { service_id: string }[] };
  serviceId = services[0]?.service_id ?? '';
  if (!serviceId) throw new Error('seed has no service');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('inlined stylesheet under the CSP', () => {
  it('styles the landing page, a list page and the slots page (a later chunk) with no CSP violation', async () => {
    const context = await browser.newContext({ viewport: MOBILE, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const complaints: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || /content security policy/i.test(m.text())) {
        complaints.push(m.text());
      }
    });
    page.on('pageerror', (e) => complaints.push(e.message));
    const stylesheets: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'stylesheet') stylesheets.push(r.url());
    });

    const styleOf = (selector: string, property: string) =>
      page.evaluate<string>(
        `getComputedStyle(document.querySelector(${JSON.stringify(selector)})).${property}`,
      );

    await page.goto(`${server.origin}/`);
    await page.locator('.hero__title').first().waitFor();
    // base.css: body { margin: 0 } (a browser's own is 8px); header.css: a sticky bar.
    expect(await styleOf('body', 'margin')).toBe('0px');
    expect(await page.locator('style').count()).toBeGreaterThanOrEqual(1);

    await page.goto(`${server.origin}/#/organizations`);
    await page.locator('.org-card').first().waitFor();
    // organizations.css
    expect(await styleOf('.org-card', 'minHeight')).toBe('88px');

    await page.goto(`${server.origin}/#/service/${serviceId}/slots`);
    await page.locator('button.slot').first().waitFor();
    // slots.css, which used to come with the slots chunk
    expect(await styleOf('button.slot', 'minHeight')).toBe('44px');
    await page.waitForLoadState('networkidle');

    expect({ complaints, stylesheets }).toEqual({ complaints: [], stylesheets: [] });
    await context.close();
  });

  it('a style the CSP does not name is refused (the policy is in force, not bypassed)', async () => {
    const context = await browser.newContext({ viewport: MOBILE });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/content security policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(`${server.origin}/`);
    await page.locator('.hero__title').first().waitFor();
    // An element the parser inserts, as injected markup would be: its style must not apply.
    await page.evaluate(`document.body.insertAdjacentHTML('beforeend',
      '<div id="probe"></div>');
      const s = document.createElement('style');
      s.textContent = '#probe { width: 123px }';
      document.head.append(s);`);
    expect(
      await page.evaluate<string>(`getComputedStyle(document.getElementById('probe')).width`),
    ).not.toBe('123px');
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    await context.close();
  });
});
