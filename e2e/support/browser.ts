import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  type Browser,
  chromium,
  type ElementHandle,
  type Locator,
  type Page,
} from 'playwright-core';
import { CHROMIUM_FLAGS, TEST_CHROMIUM } from './chromium';
import { ROOT } from './server';

export const ARTIFACTS = join(ROOT, 'e2e/artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/**
 * The folder of a test's screenshots, made: QLESS_SHOTS_DIR/<name> when set (to keep them
 * with the notes of an issue), else e2e/artifacts/<name> (ignored by git). The screenshots are
 * taken only in a run that asks for them (`npm run test:shots`, or QLESS_SHOTS_DIR set): see
 * `snap`.
 */
export function shotsDir(name: string): string {
  const dir = join(process.env.QLESS_SHOTS_DIR ?? ARTIFACTS, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Whether this run takes the screenshots for a reader: QLESS_SHOTS=1 or QLESS_SHOTS_DIR set. */
export const TAKING_SHOTS = process.env.QLESS_SHOTS === '1' || Boolean(process.env.QLESS_SHOTS_DIR);

type Shootable =
  | Pick<Page, 'screenshot'>
  | Pick<Locator, 'screenshot'>
  | Pick<ElementHandle, 'screenshot'>;

/**
 * A screenshot for a person to look at (`options.path`), in a run that asks for them (above).
 * No test reads these files: `npm test` skipped about 10 CPU-s of rasterising and encoding PNGs
 * of its CPU-bound run without them (decision 134); a locator is still waited for until it
 * shows. A test that checks pixels calls `screenshot()` itself, without a path, and always
 * runs it.
 */
export async function snap<T extends Shootable>(
  target: T,
  options: NonNullable<Parameters<T['screenshot']>[0]> & { path: string },
): Promise<void> {
  if (!TAKING_SHOTS) {
    // A locator's screenshot waited for its element to show: that wait is a check a test may
    // lean on (the part it pictures is there), so it stays when no picture is taken.
    if ('waitFor' in target)
      await (target as Pick<Locator, 'waitFor'>).waitFor({ state: 'visible' });
    return;
  }
  await (target.screenshot as (o: typeof options) => Promise<Buffer>).call(target, options);
}

let shared: Promise<Browser> | null = null;

/**
 * The worker's Chromium, launched once and kept for the browser files that run after (the
 * files of the browser project share their worker: `isolate: false`). Each file gets it with
 * its own `close()`, which closes the file's contexts (cookies, storage, service workers)
 * and leaves the browser to the next file: a launch cost about half a CPU-second of a
 * CPU-bound suite, 26 times a run (decision 117). Playwright ends the browser with the worker.
 */
export async function launch(): Promise<Browser> {
  let browser = shared ? await shared.catch(() => null) : null;
  if (!browser?.isConnected()) {
    shared = chromium.launch({ executablePath: TEST_CHROMIUM, args: CHROMIUM_FLAGS });
    browser = await shared;
  }
  const own = browser;
  return new Proxy(own, {
    get(target, property, receiver) {
      if (property === 'close') {
        return async () => {
          await Promise.all(target.contexts().map((context) => context.close()));
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export const MOBILE = { width: 360, height: 740 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

const axeSource: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource });
  // A string, so this file needs no DOM typings (the root tsconfig is Node-only). Only the
  // violations are reported: axe then builds no selectors for the nodes that passed or were
  // left incomplete; the rules and the violations are the same (decision 146).
  const violations = await page.evaluate<AxeViolation[]>(`
    axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    })))
  `);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
