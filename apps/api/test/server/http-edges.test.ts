import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ErrorBody, errorBodySchema } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';

const MALFORMED_URLS = [
  '/service/%ZZ',
  '/api/v1/service/%ZZ',
  '/api/v1/service/%',
  '/api/v1/payment/%E0%A4%A',
  `/api/v1/service/${'a'.repeat(5000)}`,
  `/api/v1/organizations/${'%ZZ'.repeat(300)}/services`,
];

describe('requests the router cannot even read', () => {
  let webDist: string;
  // Filled before the stacks open (this hook runs first): the app reads the folder as it starts.
  const webEnv: Record<string, string> = {};
  beforeAll(async () => {
    // A built web app as Vite leaves it, build manifest included.
    webDist = await mkdtemp(path.join(tmpdir(), 'qless-web-'));
    await mkdir(path.join(webDist, '.vite'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Qless</title>');
    await writeFile(path.join(webDist, '.vite/manifest.json'), '{"src/main.tsx":{}}');
    await writeFile(path.join(webDist, '.vite/manifest.json.gz'), 'not really gzip');
    webEnv.WEB_DIST_DIR = webDist;
  });
  afterAll(async () => {
    if (webDist) await rm(webDist, { recursive: true, force: true });
  });
  const plain = useStack({ fixture: false });
  const web = useStack({ env: webEnv, fixture: false });

  /** How each malformed URL is answered by `server`. */
  const answer = (server: FastifyInstance) =>
    Promise.all(
      MALFORMED_URLS.map(async (url) => {
        const res = await server.inject({ url });
        const body = res.json() as ErrorBody & { statusCode?: unknown };
        return {
          url: url.slice(0, 30),
          status4xx: res.statusCode >= 400 && res.statusCode < 500,
          ours: errorBodySchema.safeParse(body).success && !('statusCode' in body),
          code: body.code,
          echoesUrl: res.body.includes('%ZZ') || res.body.includes('aaaa'),
        };
      }),
    );

  it('malformed URLs get a 4xx with our error body (INVALID_URL), never Fastify’s own', async () => {
    expect(await answer(plain.app)).toEqual(
      MALFORMED_URLS.map((url) => ({
        url: url.slice(0, 30),
        status4xx: true,
        ours: true,
        code: 'INVALID_URL',
        echoesUrl: false,
      })),
    );
  });

  it('with the web app served (its catch-all route takes over-long paths) still 4xx with our body', async () => {
    const answers = await answer(web.app);
    expect(
      answers.map(({ status4xx, ours, echoesUrl }) => ({ status4xx, ours, echoesUrl })),
    ).toEqual(MALFORMED_URLS.map(() => ({ status4xx: true, ours: true, echoesUrl: false })));
  });

  it('the build manifest under /.vite/ is not served: a 404 with our body; the app still is', async () => {
    for (const headers of [{}, { 'accept-encoding': 'gzip' }]) {
      const res = await web.app.inject({ url: '/.vite/manifest.json', headers });
      expect({ status: res.statusCode, body: res.json() }).toEqual({
        status: 404,
        body: { code: 'NOT_FOUND', message: 'No route for GET /.vite/manifest.json' },
      });
    }
    expect((await web.app.inject({ url: '/.vite/' })).statusCode).toBe(404);
    const index = await web.app.inject({ url: '/' });
    expect({ status: index.statusCode, html: index.body.includes('<title>Qless') }).toEqual({
      status: 200,
      html: true,
    });
  });

  it('any other page path a browser asks for is the app (plain index.html without the server bundle); the API, assets and media 404s stay JSON', async () => {
    for (const url of ['/organizations?q=etat', '/service/x/slots', '/no/such/page']) {
      const res = await web.app.inject({ url, headers: { accept: 'text/html' } });
      expect({ url, status: res.statusCode, html: res.body.includes('<title>Qless') }).toEqual({
        url,
        status: 200,
        html: true,
      });
    }
    for (const url of ['/api/v1/no-such-route', '/assets/nope-12345678.js', '/media/nope.png']) {
      const res = await web.app.inject({ url, headers: { accept: 'text/html' } });
      expect({ url, status: res.statusCode, code: (res.json() as ErrorBody).code }).toEqual({
        url,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    // An image or script request for a missing file is no page either.
    const image = await web.app.inject({ url: '/nope.png', headers: { accept: 'image/png' } });
    expect(image.statusCode).toBe(404);
  });
});
