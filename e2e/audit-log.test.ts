import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import { createFixture, type Fixture } from '../apps/api/test/support/fixtures';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { ARTIFACTS, launch, MOBILE, snap } from './support/browser';
import { type RunningServer, startServer } from './support/server';

/**
 * The audit log (issue 21, decision 032) as people read it on a phone: an admin changes a
 * service from behind the proxy; the organization area's Audit log shows who, what and
 * from where in French at 360 px, and the console's tab shows it to the operator.
 */
let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let fx: Fixture;
const SHOTS = join(ARTIFACTS, 'audit');
const ADMIN = 'admin@guichet-audit.cm';
const OPERATOR = 'ops@qless-audit.cm';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  tdb = await createTestDatabase('postgres');
  if (!tdb.url) throw new Error('no PostgreSQL url');
  fx = await createFixture(tdb.database, new Date(), '-audit');
  await createUser(tdb.database.db, { email: ADMIN, role: 'org_admin', organizationId: fx.orgId });
  await createUser(tdb.database.db, { email: OPERATOR, role: 'operator' });
  server = await startServer({
    env: { DATABASE_URL: tdb.url, SEED_DEMO: 'false', TRUST_PROXY: '1' },
  });
  browser = await launch();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
});

async function signedInPage(email: string, lang: 'en' | 'fr'): Promise<Page> {
  const context = await browser.newContext({ viewport: MOBILE, reducedMotion: 'reduce' });
  await context.addInitScript(`localStorage.setItem('qless.lang', '${lang}')`);
  const login = await context.request.post(`${server.origin}/api/v1/auth/login`, {
    data: { email, password: TEST_PASSWORD },
  });
  expect(login.status()).toBe(200);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return page;
}

/** Parts of the audit log that reach past the screen's edge (none at 360 px). */
const overflows = (page: Page) =>
  page.evaluate<string[]>(`[...document.querySelectorAll('.audit, .audit *')]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
    .map((el) => el.tagName.toLowerCase() + '.' + el.className)
    .slice(0, 5)`);

describe('audit log at 360 px', () => {
  it("shows an admin's change to the organization in French, and to the operator in the console", async () => {
    // The change, made through the proxy (TRUST_PROXY=1): the client's address is kept.
    const login = await fetch(`${server.origin}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN, password: TEST_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const change = await fetch(`${server.origin}/api/v1/organization/services/${fx.serviceId}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-forwarded-for': '203.0.113.9',
      },
      body: JSON.stringify({ service_name: 'Passeports' }),
    });
    expect(change.status).toBe(200);
    // Entries are written a moment after the answer (in batches): wait until it is in.
    await expect
      .poll(async () => {
        const res = await fetch(`${server.origin}/api/v1/organization/audit`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const body = (await res.json()) as { entries: { action: string }[] };
        return body.entries.map((e) => e.action);
      })
      .toContain('PATCH /organization/services/:service_id');

    const page = await signedInPage(ADMIN, 'fr');
    await page.goto(`${server.origin}/organization/audit`);
    await page.getByRole('heading', { level: 1, name: 'Journal d’audit' }).waitFor();
    const entry = page.locator(
      '.audit-entry[data-action="PATCH /organization/services/:service_id"]',
    );
    await entry.waitFor();
    await expect.poll(() => entry.textContent()).toContain('A modifié un service');
    expect(await entry.textContent()).toContain('203.0.113.9');
    expect(await entry.textContent()).toContain(ADMIN);
    await snap(page, { path: join(SHOTS, 'audit-area-fr-360.png'), fullPage: true });
    expect(await overflows(page)).toEqual([]);

    // "Quoi": sign-ins only.
    await page.getByLabel('Quoi').selectOption({ label: 'Connexion' });
    await page.getByRole('button', { name: 'Afficher' }).click();
    await expect
      .poll(() =>
        page
          .locator('.audit-entry')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-action'))),
      )
      .toEqual(expect.arrayContaining(['POST /auth/login']));
    const shown = await page
      .locator('.audit-entry')
      .evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-action')))]);
    expect(shown).toEqual(['POST /auth/login']);

    const console = await signedInPage(OPERATOR, 'en');
    await console.goto(`${server.origin}/platform`);
    await console.getByRole('tab', { name: 'Audit log' }).click();
    await console.locator('.audit-entry').first().waitFor();
    expect(await console.getByText('Changed a service').count()).toBeGreaterThan(0);
    await snap(console, { path: join(SHOTS, 'audit-console-en-360.png'), fullPage: true });
    expect(await overflows(console)).toEqual([]);
  });
});
