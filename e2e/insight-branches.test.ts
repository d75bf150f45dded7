import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import { parseCsv } from '../apps/api/test/support/csv';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { ARTIFACTS, launch, MOBILE, snap } from './support/browser';
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

/** "12,5 min", "1 234", "50 %" → 12.5, 1234, 50 (any spaces, a French comma). */
const numberIn = (text: string): number => {
  const match = text.replace(/[\s\u00a0\u202f]/g, '').match(/-?\d+(?:,\d+)?/);
  if (!match) throw new Error(`no number in "${text}"`);
  return Number(match[0].replace(',', '.'));
};
const oneDecimal = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);

/** The Insight screen on the week of the test (a custom range), its figures on screen. */
async function openWeek(page: Page): Promise<void> {
  await page.goto(`${server.origin}/organization/insight`);
  await page.getByRole('heading', { level: 1, name: 'Statistiques' }).waitFor();
  await page.locator('input[name="insight-kind"][value="custom"]').check();
  await page.fill('#insight-from', WEEK[0] as string);
  await page.fill('#insight-to', WEEK[WEEK.length - 1] as string);
  // The range the figures are of is said above them, in French.
  await page
    .getByText(/16 novembre 2026.*20 novembre 2026/)
    .first()
    .waitFor();
}

/** The values of the summary (dt → dd). */
async function summary(page: Page): Promise<Map<string, string>> {
  const section = page.locator('section[aria-labelledby="insight-summary"]');
  const terms = await section.locator('dt').allTextContents();
  const values = await section.locator('dd').allTextContents();
  return new Map(terms.map((t, i) => [t.trim(), values[i] ?? '']));
}

/** A table behind its chart: one tap on "Afficher le tableau" shows it; its rows' cells. */
async function tableOf(page: Page, section: string): Promise<string[][]> {
  const panel = page.locator(`section[aria-labelledby="${section}"]`);
  await panel.getByText('Afficher le tableau').first().click();
  const table = panel.locator('table').first();
  await expect.poll(() => table.isVisible()).toBe(true);
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())),
    );
}

describe('Insight at 360 px in French', () => {
  it('shows a regional manager both branches: the figures the test counted, in charts and tables, and a CSV that reads back', async () => {
    const { context, page } = await frenchPage(week.adminEmail);
    await openWeek(page);
    const all = [week.head, week.akwa];
    const sum = (f: (b: (typeof all)[number]) => number) => all.reduce((n, b) => n + f(b), 0);
    // Every branch by default ("Toutes les agences"), and a branch can be chosen.
    await expect.poll(() => page.locator('#insight-branch').inputValue()).toBe('');
    const stats = await summary(page);
    expect(numberIn(stats.get('Visites') ?? '')).toBe(sum((b) => b.visits));
    expect(numberIn(stats.get('Servies') ?? '')).toBe(sum((b) => b.served));
    const waits = all.flatMap((b) => b.waits);
    const services = all.flatMap((b) => b.services);
    expect(numberIn(stats.get('Attente médiane') ?? '')).toBe(oneDecimal(median(waits)));
    expect(numberIn(stats.get('Service médian') ?? '')).toBe(oneDecimal(median(services)));
    await snap(page, { path: join(SHOTS, 'insight-regional-fr-360.png'), fullPage: true });

    // Messages of the week: the SMS the branches' outboxes sent, at 35 FCFA each.
    const sms = sum((b) => b.smsSent);
    expect(sms).toBeGreaterThan(0);
    const smsRow = page.locator('[data-testid="insight-messages"] tbody tr', { hasText: 'SMS' });
    const cells = (await smsRow.locator('td').allTextContents()).map((c) => c.trim());
    expect(numberIn(cells[0] as string)).toBe(sms);
    expect(numberIn(cells[2] as string)).toBe(sms * 35);

    // Per branch: its row in the table behind the branches' chart.
    const branches = await tableOf(page, 'insight-branches');
    expect(branches).toHaveLength(2);
    for (const branch of all) {
      const row = branches.find((r) => r[0] === branch.label);
      expect(row, branch.label).toBeDefined();
      const [, visits, served, noShows, , wait, service] = row as string[];
      expect(numberIn(visits as string)).toBe(branch.visits);
      expect(numberIn(served as string)).toBe(branch.served);
      expect(numberIn(noShows as string)).toBe(branch.noShows);
      expect(numberIn(wait as string)).toBe(oneDecimal(median(branch.waits)));
      expect(numberIn(service as string)).toBe(oneDecimal(median(branch.services)));
    }
    // Day by day, and the hour they came (every arrival was between 08:00 and 09:00).
    const daily = await tableOf(page, 'insight-daily');
    expect(daily.map((r) => numberIn(r[1] as string))).toEqual(
      WEEK.map((_, i) => sum((b) => b.daily[i] as number)),
    );
    const heat = await tableOf(page, 'insight-heat');
    const eight = heat.find((r) => /^8/.test(r[0] ?? ''));
    expect(eight?.slice(1, 6).map(numberIn)).toEqual(
      WEEK.map((_, i) => sum((b) => b.daily[i] as number)),
    );
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      360,
    );
    await snap(page, {
      path: join(SHOTS, 'insight-regional-tables-fr-360.png'),
      fullPage: true,
    });

    // The CSV of the visits, as French Excel reads it (decision 122): UTF-8 with BOM, ";",
    // French headers and labels, the zone in the header, one row per visit.
    const exportPanel = page.locator('section[aria-labelledby="insight-export"]');
    await exportPanel.scrollIntoViewIfNeeded();
    await snap(exportPanel, { path: join(SHOTS, 'insight-export-fr-360.png') });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      exportPanel.locator('a').first().click(),
    ]);
    expect(download.suggestedFilename()).toBe(`qless-visites-${WEEK[0]}-${WEEK.at(-1)}.csv`);
    const file = readFileSync((await download.path()) as string);
    writeFileSync(join(SHOTS, 'insight-visits-fr.csv'), file);
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(file.subarray(3).toString('utf8'), ';');
    const [header, ...visits] = rows as [string[], ...string[][]];
    expect(header).toContain('Arrivée (Africa/Douala)');
    expect(header).toContain('Transfert');
    expect(visits).toHaveLength(sum((b) => b.visits));
    const branchColumn = header.indexOf('Agence');
    const stateColumn = header.indexOf('État');
    const waitColumn = header.indexOf('Attente (min)');
    for (const branch of all) {
      const mine = visits.filter((r) => (r[branchColumn] ?? '').endsWith(`(${branch.label})`));
      expect(mine, branch.label).toHaveLength(branch.visits);
      expect(mine.filter((r) => r[stateColumn] === 'Servi')).toHaveLength(branch.served);
    }
    // Minutes as French Excel reads a number (a decimal comma, never a point).
    const waitCells = visits.map((r) => r[waitColumn] ?? '').filter(Boolean);
    expect(waitCells).toHaveLength(sum((b) => b.visits));
    expect(waitCells.every((w) => /^\d+(,\d)?$/.test(w))).toBe(true);
    // One branch chosen: its figures only.
    await page.selectOption('#insight-branch', week.akwa.organizationId);
    await expect
      .poll(async () => numberIn((await summary(page)).get('Visites') ?? '0'))
      .toBe(week.akwa.visits);
    // One branch: its monthly SMS budget, set here; a number that is not one is refused.
    const messages = page.locator('section[aria-labelledby="insight-messages"]');
    await messages.getByLabel('Budget SMS mensuel (FCFA)').fill('douze');
    await messages.getByRole('button', { name: 'Enregistrer le budget' }).click();
    await messages.getByText('Saisissez un nombre entier de FCFA').waitFor();
    await messages.getByLabel('Budget SMS mensuel (FCFA)').fill('5 000');
    await messages.getByRole('button', { name: 'Enregistrer le budget' }).click();
    await expect
      .poll(() => messages.getByTestId('sms-budget-spent').textContent())
      .toMatch(/sur un budget de 5\s000\sFCFA\.$/);
    const saved = await tdb.database.db
      .selectFrom('organizations')
      .select('sms_budget_monthly_xaf')
      .where('id', '=', week.akwa.organizationId)
      .executeTakeFirstOrThrow();
    expect(saved.sms_budget_monthly_xaf).toBe(5000);
    await snap(messages, { path: join(SHOTS, 'insight-messages-fr-360.png') });
    await context.close();
  });

  it('lets the regional manager work in one branch per tab, from the header or the Branches screen', async () => {
    const { context, page } = await frenchPage(week.adminEmail);
    await page.goto(`${server.origin}/organization/branches`);
    await page.getByRole('heading', { level: 1, name: 'Agences' }).waitFor();
    await page.getByRole('heading', { name: /^Cette agence\s*: Bonanjo$/ }).waitFor();
    expect(await page.locator('.branches__item').count()).toBe(2);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      360,
    );
    await snap(page, { path: join(SHOTS, 'branches-fr-360.png'), fullPage: true });
    // The switch in the header: this tab now acts on Akwa, every screen with it.
    await Promise.all([
      page.waitForEvent('load'),
      page.selectOption('.area__branch select', week.akwa.organizationId),
    ]);
    await page.getByRole('heading', { name: /^Cette agence\s*: Akwa$/ }).waitFor();
    // Another tab of the same session still works in its own branch.
    const other = await context.newPage();
    await other.goto(`${server.origin}/organization/branches`);
    await other.getByRole('heading', { name: /^Cette agence\s*: Bonanjo$/ }).waitFor();
    await context.close();
  });

  it('shows a branch manager their branch only', async () => {
    const { context, page } = await frenchPage(week.managerEmail);
    await openWeek(page);
    expect(numberIn((await summary(page)).get('Visites') ?? '')).toBe(week.akwa.visits);
    expect(await page.locator('#insight-branch').count()).toBe(0);
    expect(await page.locator('section[aria-labelledby="insight-branches"]').count()).toBe(0);
    // The other branch, named in the address of the API, is refused.
    const other = await context.request.get(
      `${server.origin}/api/v1/organization/insight?from=${WEEK[0]}&to=${WEEK[4]}&organization_id=${week.head.organizationId}`,
    );
    expect(other.status()).toBe(403);
    await snap(page, { path: join(SHOTS, 'insight-manager-fr-360.png'), fullPage: true });
    await context.close();
  });
});

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
    // No branch named: every branch of the regional manager, in sum and one by one.
    const both = await (
      await context.request.get(
        `${server.origin}/api/v1/organization/insight?from=${from}&to=${to}`,
      )
    ).json();
    expect(both.totals.visits).toBe(week.head.visits + week.akwa.visits);
    expect(both.by_branch.map((b: { visits: number }) => b.visits)).toEqual([
      week.head.visits,
      week.akwa.visits,
    ]);
    await context.close();
  });
});
