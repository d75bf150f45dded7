import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from './config.js';
import type { Clock } from './core/clock.js';
import { createWebRenderer, sendPage } from './web-render.js';

// The file sent may be the precompressed sibling (`x-Ab12Cd34.js.br`): same asset.
const HASHED_ASSET =
  /\/assets\/.+-[A-Za-z0-9_-]{8,}\.(js|css|svg|png|webp|avif|woff2)(\.br|\.gz)?$/;
/**
 * Paths that are never a page: the API, uploaded media, built assets. Their 404 is JSON: a
 * chunk a deploy removed is never answered with a page (the app then reloads once).
 */
const NOT_A_PAGE = /^\/(?:api|media|assets)(?:\/|$)/;

/** A browser asking for a document, or a client that takes anything (curl, a probe). */
function wantsPage(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '');
  return accept === '' || accept.includes('text/html') || accept.includes('*/*');
}

/**
 * The file under `root` a URL path names, or null: nothing there, a folder, a dotfile or
 * dot folder (build metadata such as .vite/manifest.json stays private), or a path that
 * does not decode.
 */
async function fileAt(root: string, pathname: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const parts = decoded.split('/').filter(Boolean);
  if (parts.length === 0 || parts.some((p) => p.startsWith('.') || p.includes('\\'))) return null;
  const rel = parts.join('/');
  try {
    return (await stat(path.join(root, rel))).isFile() ? rel : null;
  } catch {
    return null;
  }
}

/**
 * Serves the built web app: its files (precompressed .br/.gz siblings when present) and,
 * for any other GET a browser makes for a document, the page of that path (server-rendered
 * when the server bundle is built; decision 107). /media serves uploads.
 */
export async function registerWebStatic(
  app: FastifyInstance,
  config: Config,
  clock: Clock,
): Promise<void> {
  await app.register(fastifyStatic, {
    root: config.mediaDir,
    prefix: '/media/',
    decorateReply: false,
    maxAge: '1d',
  });

  const index = path.join(config.webDistDir, 'index.html');
  if (!existsSync(index)) {
    app.get('/', async (_req, reply) =>
      reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built. Run `npm run build`, or `npm start` which builds it.'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: config.webDistDir,
    serve: false,
    preCompressed: true,
    dotfiles: 'ignore',
    setHeaders(reply, filePath) {
      if (HASHED_ASSET.test(filePath.replaceAll('\\', '/'))) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      } else {
        reply.header('cache-control', 'no-cache');
      }
      // The offline ticket's service worker (decision 113) controls the whole site.
      if (/[\\/]sw\.js(\.br|\.gz)?$/.test(filePath)) reply.header('service-worker-allowed', '/');
    },
  });
  const renderer = await createWebRenderer(app, config.webDistDir, clock);

  app.get('/*', async (request, reply) => {
    const url = request.raw.url ?? '/';
    const pathname = url.split('?')[0] ?? '/';
    // A name no file system holds (NAME_MAX): the error handler's INVALID_URL, as the static
    // files' lookup answered before, never a 404 that would echo the address.
    if (pathname.split('/').some((part) => part.length > 255)) {
      throw Object.assign(new Error('Path segment too long'), { statusCode: 414 });
    }
    // Dot folders and files (build metadata) are nobody's page either.
    if (/\/\./.test(pathname)) return reply.callNotFound();
    if (NOT_A_PAGE.test(pathname) && !pathname.startsWith('/assets/')) return reply.callNotFound();
    const file =
      pathname === '/' || pathname === '/index.html'
        ? null
        : await fileAt(config.webDistDir, pathname);
    if (file) return reply.sendFile(file);
    // A page of the previous release asks for its own chunks (decision 027): served from its
    // build's assets folder while it is kept. Hashed names never collide between builds.
    if (pathname.startsWith('/assets/')) {
      for (const dir of config.webAssetsFallbackDirs) {
        const earlier = await fileAt(dir, pathname.slice('/assets'.length));
        if (earlier) return reply.sendFile(earlier, dir);
      }
    }
    if (NOT_A_PAGE.test(pathname) || !wantsPage(request)) return reply.callNotFound();
    return sendPage(request, reply, await renderer.page(request));
  });
}
