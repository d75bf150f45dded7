import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const STYLE_ELEMENT = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
/** A script element with code in it: no `src`, and no data type such as application/json. */
const INLINE_SCRIPT = /<script\b((?:(?!\bsrc=)[^>])*)>([\s\S]*?)<\/script\s*>/gi;
const DATA_TYPE = /\btype=["']?(?!module|text\/javascript)[^"'\s>]+/i;

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * CSP source expressions (`'sha256-…'`) allowing exactly the `<style>` elements of a page:
 * the build inlines the stylesheet into index.html (decision 108) and the CSP names it by
 * hash rather than allowing every inline style.
 */
export function inlineStyleHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, css = ''] of html.matchAll(STYLE_ELEMENT)) {
    hashes.add(sha256(css));
  }
  return [...hashes];
}

/** The hashes of the built web app's index.html, read once at start; none when it is not built. */
export function builtIndexStyleHashes(webDistDir: string): string[] {
  const index = path.join(webDistDir, 'index.html');
  return existsSync(index) ? inlineStyleHashes(readFileSync(index, 'utf8')) : [];
}

/** The same for the page's inline scripts (the boot, decision 108); data blocks need none. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = '', code = ''] of html.matchAll(INLINE_SCRIPT)) {
    if (!DATA_TYPE.test(attributes) && code.trim()) hashes.add(sha256(code));
  }
  return [...hashes];
}

/** The built index.html's inline script hashes, read once at start. */
export function builtIndexScriptHashes(webDistDir: string): string[] {
  const index = path.join(webDistDir, 'index.html');
  return existsSync(index) ? inlineScriptHashes(readFileSync(index, 'utf8')) : [];
}
