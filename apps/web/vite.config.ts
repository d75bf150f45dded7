import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { buildStamp, CLIENT_STAMP } from './build/build-stamp';
import { deferScripts, inlineStylesheets } from './build/inline-css';
import { offlineTicket } from './build/offline';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const COMPRESSIBLE = /\.(?:js|css|html|svg)$/;
const API_TARGET = 'http://localhost:3000';

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

/** Writes .gz and .br siblings so the server can send them as they are (preCompressed). */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'qless-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const jobs: Promise<void>[] = [];
      for await (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        jobs.push(
          (async () => {
            const data = await readFile(file);
            const [gz, br] = await Promise.all([
              gzipAsync(data, { level: 9 }),
              brotliAsync(data, {
                params: {
                  [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
                  [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length,
                },
              }),
            ]);
            await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
          })(),
        );
      }
      await Promise.all(jobs);
    },
  };
}

/**
 * The one stylesheet goes into index.html as a <style> (no render-blocking request; the API's
 * CSP allows it by its hash), and the scripts are fetched at low priority (decision 108).
 */
function firstPaintHtml(): Plugin {
  let base = '/';
  return {
    name: 'qless-first-paint-html',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const { html: inlined, inlined: hrefs } = inlineStylesheets(html, (href) => {
          if (!href.startsWith(base)) return undefined;
          const asset = bundle[href.slice(base.length)];
          if (asset?.type !== 'asset') return undefined;
          return typeof asset.source === 'string'
            ? asset.source
            : new TextDecoder().decode(asset.source);
        });
        if (hrefs.length !== 1) {
          throw new Error(`Expected one stylesheet to inline in index.html, found ${hrefs.length}`);
        }
        return deferScripts(inlined);
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), firstPaintHtml(), offlineTicket(), precompress(), buildStamp(CLIENT_STAMP)],
  build: {
    manifest: true,
    // One stylesheet for every page, inlined into index.html: pages loaded later need no CSS request.
    cssCodeSplit: false,
    // Browsers without <link rel="modulepreload"> still run the app (they just fetch chunks
    // as imported); the polyfill was half a KB of the first download for them alone.
    modulePreload: { polyfill: false },
    target: 'es2020',
    sourcemap: false,
  },
  server: {
    proxy: {
      '/api': { target: API_TARGET, ws: true, changeOrigin: true },
      '/media': { target: API_TARGET, changeOrigin: true },
    },
  },
});
