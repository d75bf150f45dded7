import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';

/**
 * After a deploy, a page of the previous release asks for its own chunks (decision 027):
 * WEB_ASSETS_FALLBACK_DIRS serves them from that release's assets folder; a chunk no build
 * holds is a 404, never the page (the browser would run the HTML as a script).
 */
describe('built assets of the previous release', () => {
  let dir: string;
  const env: Record<string, string> = {};
  const withoutFallback: Record<string, string> = {};
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qless-assets-'));
    const current = path.join(dir, 'releases/2/apps/web/dist');
    const previous = path.join(dir, 'releases/1/apps/web/dist');
    for (const dist of [current, previous])
      await mkdir(path.join(dist, 'assets'), { recursive: true });
    await writeFile(path.join(current, 'index.html'), '<!doctype html><title>Qless</title>');
    await writeFile(path.join(current, 'assets/slots-NEW12345.js'), 'export const build = 2;');
    await writeFile(path.join(previous, 'index.html'), '<!doctype html><title>Old</title>');
    await writeFile(path.join(previous, 'assets/slots-OLD12345.js'), 'export const build = 1;');
    await writeFile(path.join(previous, 'assets/slots-OLD12345.js.br'), 'brotli bytes');
    await writeFile(path.join(previous, 'assets/.secret'), 'not served');
    env.WEB_DIST_DIR = current;
    env.WEB_ASSETS_FALLBACK_DIRS = ` ${path.join(previous, 'assets')} ,${path.join(dir, 'gone')}`;
    withoutFallback.WEB_DIST_DIR = current;
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const web = useStack({ env, fixture: false });
  const plain = useStack({ env: withoutFallback, fixture: false });

  it('serves the current build first, then the previous one, with the immutable cache of a hashed file', async () => {
    const answers = await Promise.all(
      ['/assets/slots-NEW12345.js', '/assets/slots-OLD12345.js'].map(async (url) => {
        const res = await web.app.inject({ url });
        return {
          url,
          status: res.statusCode,
          body: res.body,
          type: res.headers['content-type'],
          cache: res.headers['cache-control'],
        };
      }),
    );
    expect(answers).toEqual([
      {
        url: '/assets/slots-NEW12345.js',
        status: 200,
        body: 'export const build = 2;',
        type: expect.stringMatching(/javascript/),
        cache: 'public, max-age=31536000, immutable',
      },
      {
        url: '/assets/slots-OLD12345.js',
        status: 200,
        body: 'export const build = 1;',
        type: expect.stringMatching(/javascript/),
        cache: 'public, max-age=31536000, immutable',
      },
    ]);
    // Its precompressed sibling too, as for the current build's files.
    const br = await web.app.inject({
      url: '/assets/slots-OLD12345.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect([br.headers['content-encoding'], br.body]).toEqual(['br', 'brotli bytes']);
  });

  it('a chunk no build holds, a dotfile or a way out of the folder: a JSON 404, never the page', async () => {
    for (const url of ['/assets/slots-GONE1234.js', '/assets/.secret', '/assets/..%2findex.html']) {
      for (const accept of ['*/*', 'text/html']) {
        const res = await web.app.inject({ url, headers: { accept } });
        const code = res.body.startsWith('{') ? res.json().code : res.body.slice(0, 40);
        expect({ url, accept, status: res.statusCode, code }).toEqual({
          url,
          accept,
          status: 404,
          code: 'NOT_FOUND',
        });
      }
    }
    // Without the setting, the previous build's chunk is gone as well.
    const res = await plain.app.inject({ url: '/assets/slots-OLD12345.js' });
    expect([res.statusCode, res.json().code]).toEqual([404, 'NOT_FOUND']);
  });
});
