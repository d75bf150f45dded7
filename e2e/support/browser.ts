import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, TEST_CHROMIUM } from './chromium';
import { ROOT } from './server';

export const ARTIFACTS = join(ROOT, 'e2e/artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: TEST_CHROMIUM, args: CHROMIUM_FLAGS });
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
  // A string, so this file needs no DOM typings (the root tsconfig is Node-only).
  const violations = await page.evaluate<AxeViolation[]>(`
    axe.run(document).then((result) => result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    })))
  `);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
