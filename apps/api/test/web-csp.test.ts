import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './support/test-app.js';
import { createTestDatabase, engines, type TestDatabase } from './support/test-db.js';

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

describe.each(engines)('CSP for the inlined stylesheet (%s)', (engine) => {
  let t: TestDatabase;
  let app: FastifyInstance;
  let webDist: string;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    webDist = await mkdtemp(path.join(tmpdir(), 'qless-web-'));
    await writeFile(path.join(webDist, 'index.html'), INDEX);
    ({ app } = await createTestApp(t.database, { env: { WEB_DIST_DIR: webDist } }));
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await t?.cleanup();
    if (webDist) await rm(webDist, { recursive: true, force: true });
  });

  it('style-src allows exactly the <style> elements of the served index.html, by hash', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    const styles = [...res.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? '');
    expect(styles).toHaveLength(2);
    expect(styleSrc(res.headers['content-security-policy'] as string).sort()).toEqual(
      ["'self'", ...styles.map(sha256)].sort(),
    );
  });

  it('API answers carry the same policy, and no inline style is allowed wholesale', async () => {
    const page = await app.inject({ url: '/' });
    const api = await app.inject({ url: '/api/v1/nope' });
    expect(api.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
    expect(styleSrc(api.headers['content-security-policy'] as string)).not.toContain(
      "'unsafe-inline'",
    );
  });

  it('without a built web app, only stylesheets from the site itself', async () => {
    const { app: bare } = await createTestApp(t.database);
    try {
      const res = await bare.inject({ url: '/api/v1/nope' });
      expect(styleSrc(res.headers['content-security-policy'] as string)).toEqual(["'self'"]);
    } finally {
      await bare.close();
    }
  });
});
