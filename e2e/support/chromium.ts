import { existsSync } from 'node:fs';

/**
 * Debian's Chromium (never a downloaded browser) and the flags it runs with on this machine.
 * Lighthouse measures pages in it (bench/lighthouse.ts): the browser a phone runs.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The browser tests drive Debian's chromium-headless-shell: the same Chromium (Blink, V8, the
 * network stack) built without the full browser around it, as Playwright does by default for
 * headless runs. On the four largest browser files it spent 45 CPU-s against the full
 * browser's 80, every test passing (decision 116). Without the package, the full browser.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const TEST_CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM);

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
