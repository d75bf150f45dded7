import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { createTestApp } from '../support/test-app.js';

// As the build leaves it (decision 108): the stylesheet inlined, plus the shell's own rule.
const INDEX = `<!doctype html><html><head><title>Qless</title>
<style>.shell .site-nav{visibility:hidden}</style>
<style>:root{--brand:#0a58ca}body{margin:0;content:"é"}</style>
</head><body><div id="root"></div></body></html>`;

/** The style-src sources of a CSP header. */
function styleSrc(csp: string | undefined): string[] {
  const directive = (csp ?? '').split(';').find((d) => d.trim().startsWith('style-src '));
  return directive ? directive.trim().split(/\s+/).slice(1) : [];
}

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('CSP for the inlined stylesheet', () => {
  // Named now, since the stack's env is given now; written before the stack's app starts.
  const webDist = path.join(tmpdir(), `qless-web-${randomBytes(6).toString('hex')}`);
  beforeAll(async () => {
    await mkdir(webDist);
    await writeFile(path.join(webDist, 'index.html'), INDEX);
  });
  afterAll(async () => {
    await rm(webDist, { recursive: true, force: true });
  });
  const s = useStack({ env: { WEB_DIST_DIR: webDist }, fixture: false });

  it('style-src allows exactly the <style> elements of the served index.html, by hash', async () => {
    const res = await s.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    const styles = [...res.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? '');
    expect(styles).toHaveLength(2);
    expect(styleSrc(res.headers['content-security-policy'] as string).sort()).toEqual(
      ["'self'", ...styles.map(sha256)].sort(),
    );
  });

  it('API answers carry their own policy (nothing loads), and no inline style is allowed wholesale', async () => {
    const page = await s.app.inject({ url: '/' });
    const api = await s.app.inject({ url: '/api/v1/nope' });
    expect(api.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(styleSrc(page.headers['content-security-policy'] as string)).not.toContain(
      "'unsafe-inline'",
    );
  });

  it('without a built web app, only stylesheets from the site itself', async () => {
    const { app: bare } = await createTestApp(s.database);
    try {
      // Any answer outside /api/ carries the pages' policy, a 404 included.
      const res = await bare.inject({ url: '/no-such-page.css' });
      expect(styleSrc(res.headers['content-security-policy'] as string)).toEqual(["'self'"]);
    } finally {
      await bare.close();
    }
  });
});
