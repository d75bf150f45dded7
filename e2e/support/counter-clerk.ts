import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MOBILE } from './browser';

/**
 * A clerk at the counter screen, for browser tests (issue 30; kept for the lead's "busy
 * minute"): signs in through the API, picks and opens a counter, and acts by the labels of
 * the language the page speaks.
 */
export interface Clerk {
  context: BrowserContext;
  page: Page;
}

export const COUNTER_WORDS = {
  fr: {
    pick: 'Votre guichet',
    open: 'Ouvrir',
    opened: 'Ouvert',
    callNext: 'Appeler le suivant',
    start: 'Commencer',
    recall: 'Rappeler',
    noShow: 'Absent',
    done: 'Terminé',
    undo: /^Annuler \(\d+ s\)$/,
    back: 'Remettre dans la file',
  },
  en: {
    pick: 'Your counter',
    open: 'Open',
    opened: 'Open',
    callNext: 'Call next',
    start: 'Start',
    recall: 'Recall',
    noShow: 'No-show',
    done: 'Done',
    undo: /^Undo \(\d+ s\)$/,
    back: 'Back in line',
  },
} as const;
export type ClerkLocale = keyof typeof COUNTER_WORDS;

/** A signed-in staff page (360 px unless told) on the counter screen. */
export async function clerkPage(
  browser: Browser,
  origin: string,
  credentials: { email: string; password: string },
  locale: ClerkLocale,
  viewport: { width: number; height: number } = MOBILE,
): Promise<Clerk> {
  const context = await browser.newContext({
    viewport,
    locale: locale === 'fr' ? 'fr-FR' : 'en-GB',
    reducedMotion: 'reduce',
    bypassCSP: true,
  });
  const login = await context.request.post(`${origin}/api/v1/auth/login`, {
    data: credentials,
  });
  if (login.status() !== 200) throw new Error(`login ${credentials.email}: ${login.status()}`);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  await page.goto(`${origin}/organization/queue`);
  return { context, page };
}

/** Picks the counter by name and opens it when it is not open yet. */
export async function takeCounter(clerk: Clerk, name: string, locale: ClerkLocale): Promise<void> {
  const w = COUNTER_WORDS[locale];
  const { page } = clerk;
  await page.getByLabel(w.pick).selectOption({ label: name });
  const state = page.getByTestId('counter-state');
  await state.waitFor();
  if ((await state.textContent()) !== w.opened) {
    await page.getByRole('button', { name: w.open, exact: true }).click();
  }
  await page.waitForFunction(
    `document.querySelector('[data-testid="counter-state"]')?.textContent === ${JSON.stringify(w.opened)}`,
  );
}

/**
 * The main button's place on the screen (Call next, then Start, then Done), once it can be
 * pressed (it settles for a moment after each change).
 */
export async function mainSpot(page: Page): Promise<{ x: number; y: number }> {
  const main = page.locator('[data-slot="main"]:not([disabled])');
  await main.waitFor();
  // In the middle of the screen: scrolled to the top, the sticky site header covers it.
  await main.evaluate((el) =>
    (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'center' }),
  );
  const box = await main.boundingBox();
  if (!box) throw new Error('no main button');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** The number the counter holds now ("A-002"), or null. */
export async function heldNumber(page: Page): Promise<string | null> {
  const held = page.getByTestId('held-visit');
  if ((await held.count()) === 0) return null;
  return (await held.locator('.queue-number').first().textContent())?.trim() ?? null;
}

/** The counter screen's answer to the last act (the notice below the buttons). */
export function counterNotice(page: Page) {
  return page.locator('.queue-held ~ [aria-live="polite"] .alert').first();
}

/**
 * On a page whose context installed Playwright's clock: moves it past the main button's
 * settle (MAIN_SETTLE_MS, 1.5 s, in held-panel.tsx), so that a test that is not about the
 * double tap does not wait it out after each act. Then the main button is live.
 */
export async function settled(page: Page): Promise<void> {
  await page.clock.fastForward(1_600);
  await page.locator('[data-slot="main"]:not([disabled])').waitFor();
}
