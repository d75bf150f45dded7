import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const STYLE_ELEMENT = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;

/**
 * CSP source expressions (`'sha256-…'`) allowing exactly the `<style>` elements of a page:
 * the build inlines the stylesheet into index.html (decision 108) and the CSP names it by
 * hash rather than allowing every inline style.
 */
export function inlineStyleHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, css = ''] of html.matchAll(STYLE_ELEMENT)) {
    hashes.add(`'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/** The hashes of the built web app's index.html, read once at start; none when it is not built. */
export function builtIndexStyleHashes(webDistDir: string): string[] {
  const index = path.join(webDistDir, 'index.html');
  return existsSync(index) ? inlineStyleHashes(readFileSync(index, 'utf8')) : [];
}
