import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';

const HASHED_ASSET = /\/assets\/.+-[A-Za-z0-9_-]{8,}\.(js|css|svg|png|webp|avif|woff2)$/;

/** Serves the built web app at / (precompressed .br/.gz siblings when present) and /media. */
export async function registerWebStatic(app: FastifyInstance, config: Config): Promise<void> {
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
    prefix: '/',
    preCompressed: true,
    wildcard: true,
    // Build metadata (.vite/manifest.json) and any other dotfile stay private: a 404.
    dotfiles: 'ignore',
    setHeaders(reply, filePath) {
      if (HASHED_ASSET.test(filePath.replaceAll('\\', '/'))) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      } else {
        reply.header('cache-control', 'no-cache');
      }
    },
  });
}
