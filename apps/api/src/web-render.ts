import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import {
  type ApiAnswer,
  EMBEDDED_DATA_ID,
  LOCALE_COOKIE,
  type Locale,
  PRELOAD_META,
  pickLocale,
  type WebRenderBundle,
} from '@qless/contract/web-page';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from './core/clock.js';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Server rendering of the web app's pages (decision 107). The web build leaves a Node bundle
 * (`dist-ssr/entry-server.js`, beside `dist`): given a path it says which API answers the
 * page starts from and renders the page's markup. This module loads it once, gets those
 * answers from this same server (`inject`: the very routes, hooks and caches the browser
 * would hit), and writes markup, language and answers into the built index.html.
 */

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

const OUTLET = /<!--app-html-->[\s\S]*<!--\/app-html-->/;

export interface WebPage {
  status: number;
  html: string;
  /** Seconds after which the client may try again (a 503). */
  retryAfter?: number;
}

/** What a page says when the database is away, in each language. */
const UNAVAILABLE_TEXT: Record<Locale, { title: string; body: string; retry: string }> = {
  en: {
    title: 'The service is briefly unavailable',
    body: 'We cannot reach our data right now. Please try again in a moment.',
    retry: 'Retry',
  },
  fr: {
    title: 'Le service est momentanément indisponible',
    body: 'Nous ne pouvons pas joindre nos données pour le moment. Veuillez réessayer dans un instant.',
    retry: 'Réessayer',
  },
};

/** Seconds a client is asked to wait before it retries a page the database could not serve. */
const UNAVAILABLE_RETRY_AFTER_S = 5;

/**
 * The page of a path whose data the database could not give (503): the template with a
 * message and a Retry link to the same address, in the reader's language; the app's
 * scripts stay, so once the database is back the page works as usual.
 */
function unavailablePage(template: string, locale: Locale, url: string): WebPage {
  const text = UNAVAILABLE_TEXT[locale];
  const markup =
    `<main class="page-unavailable" role="alert"><h1>${escapeText(text.title)}</h1>` +
    `<p>${escapeText(text.body)}</p>` +
    `<p><a class="button" href="${escapeAttr(url)}">${escapeText(text.retry)}</a></p></main>`;
  const html = template
    .replace(/<html lang="[^"]*"/, `<html lang="${locale}"`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeText(text.title)}</title>`)
    .replace(OUTLET, () => markup);
  return { status: 503, html, retryAfter: UNAVAILABLE_RETRY_AFTER_S };
}

export interface WebRenderer {
  /** Whether pages are rendered on the server (false: the plain index.html). */
  readonly enabled: boolean;
  page(request: FastifyRequest): Promise<WebPage>;
}

/** JSON safe inside `<script>`: no `<` (so no `</script>` or `<!--`), no U+2028/2029. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/** The French messages' module, as the build manifest names it. */
const FRENCH_MESSAGES = 'src/i18n/fr.ts';

function isBundle(value: unknown): value is WebRenderBundle {
  const v = value as Partial<WebRenderBundle> | null;
  return typeof v?.plan === 'function' && typeof v.render === 'function';
}

/**
 * The route chunk and the chunks it imports (to preload), and their stylesheets (to link:
 * the route's markup is in the HTML, its CSS must be there before the first paint), minus
 * what the entry already brings.
 */
function routeAssets(manifest: Manifest, module: string | null): { js: string[]; css: string[] } {
  const js: string[] = [];
  const css: string[] = [];
  if (!module || !manifest[module]) return { js, css };
  const entryKeys = Object.entries(manifest)
    .filter(([, c]) => c.isEntry)
    .map(([key]) => key);
  const seen = new Set<string>();
  const skip = new Set<string>();
  const mark = (key: string) => {
    if (skip.has(key)) return;
    skip.add(key);
    for (const next of manifest[key]?.imports ?? []) mark(next);
  };
  for (const key of entryKeys) mark(key);
  const visit = (key: string) => {
    if (seen.has(key) || skip.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    js.push(chunk.file);
    css.push(...(chunk.css ?? []));
    for (const next of chunk.imports ?? []) visit(next);
  };
  visit(module);
  return { js, css };
}

const escapeAttr = (s: string) => s.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
const escapeText = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * Loads the template and, when built, the server bundle. Missing bundle or a bundle that
 * fails to load: pages are the plain index.html (its static shell), and the log says why.
 */
export async function createWebRenderer(
  app: FastifyInstance,
  webDistDir: string,
  clock: Clock,
): Promise<WebRenderer> {
  const template = await readFile(path.join(webDistDir, 'index.html'), 'utf8');
  const plain: WebRenderer = {
    enabled: false,
    page: async () => ({ status: 200, html: template }),
  };
  const bundlePath = path.join(webDistDir, '..', 'dist-ssr', 'entry-server.js');
  if (!existsSync(bundlePath)) {
    app.log.info(
      { bundlePath },
      'web pages are not server-rendered: the server bundle is not built',
    );
    return plain;
  }
  if (!OUTLET.test(template)) {
    app.log.warn('web pages are not server-rendered: index.html has no <!--app-html--> outlet');
    return plain;
  }
  let bundle: WebRenderBundle;
  let manifest: Manifest = {};
  try {
    const loaded: unknown = await import(pathToFileURL(bundlePath).href);
    if (!isBundle(loaded)) throw new Error('entry-server exports no plan/render');
    bundle = loaded;
    const manifestPath = path.join(webDistDir, '.vite', 'manifest.json');
    if (existsSync(manifestPath)) manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
  } catch (error) {
    app.log.warn(
      { err: error },
      'web pages are not server-rendered: the server bundle failed to load',
    );
    return plain;
  }

  // As from the reader's address: a limit per client (the ticket look-up's) then counts the
  // reader's own requests, not every page the server rendered.
  const answer = async (apiPath: string, remoteAddress: string): Promise<ApiAnswer> => {
    const res = await app.inject({
      method: 'GET',
      url: apiPath,
      headers: { accept: 'application/json' },
      remoteAddress,
    });
    let body: unknown = null;
    try {
      body = res.body ? JSON.parse(res.body) : null;
    } catch {
      body = null;
    }
    return { status: res.statusCode, body };
  };

  return {
    enabled: true,
    async page(request) {
      const url = request.raw.url ?? '/';
      const at = url.indexOf('?');
      const pathname = at < 0 ? url : url.slice(0, at);
      const search = at < 0 ? '' : url.slice(at);
      const locale = pickLocale(
        request.cookies?.[LOCALE_COOKIE],
        request.headers['accept-language'],
      );
      // Once one answer says the database is away, the page's other answers are not asked
      // for (each would wait for the database again): the page says so, with Retry.
      let databaseAway = false;
      const get = async (apiPath: string): Promise<ApiAnswer> => {
        if (databaseAway) return { status: 503, body: null };
        const got = await answer(apiPath, request.ip);
        const code = (got.body as { code?: unknown } | null)?.code;
        if (got.status === 503 && code === 'DATABASE_UNAVAILABLE') databaseAway = true;
        return got;
      };
      try {
        const plan = await bundle.plan(pathname, search, get, clock.now());
        if (databaseAway) return unavailablePage(template, locale, url);
        const rendered = await bundle.render({
          pathname,
          search,
          locale,
          data: plan.data,
          onError: (error) =>
            request.log.error({ err: error }, 'server rendering: a part left to the browser'),
        });
        const assets = routeAssets(manifest, plan.module);
        // French messages are their own chunk (decision 108): the boot loads them before it
        // hydrates a French page, so they are fetched alongside the route's chunk.
        const messages = locale === 'fr' ? routeAssets(manifest, FRENCH_MESSAGES).js : [];
        // Named, not linked: the page's boot script fetches them once the page has painted
        // (decision 108), as it does the entry's own.
        const links = [
          ...assets.css.map((file) => `<link rel="stylesheet" href="/${escapeAttr(file)}">`),
          ...[...assets.js, ...messages].map(
            (file) => `<meta name="${PRELOAD_META}" content="/${escapeAttr(file)}">`,
          ),
        ].join('');
        const html = template
          .replace(/<html lang="[^"]*"/, `<html lang="${locale}"`)
          .replace('</head>', `${links}</head>`)
          .replace(/<title>[^<]*<\/title>/, (whole) =>
            rendered.title === null ? whole : `<title>${escapeText(rendered.title)}</title>`,
          )
          .replace(OUTLET, () => rendered.html)
          .replace(
            '</body>',
            () =>
              `<script type="application/json" id="${EMBEDDED_DATA_ID}">${scriptJson(plan.data)}</script></body>`,
          );
        return { status: plan.status, html };
      } catch (error) {
        if (databaseAway) return unavailablePage(template, locale, url);
        request.log.error({ err: error }, 'server rendering failed: the plain page is sent');
        return { status: 200, html: template };
      }
    },
  };
}

/** Sends a page, compressed as the client accepts (brotli, else gzip), never cached as is. */
export async function sendPage(request: FastifyRequest, reply: FastifyReply, page: WebPage) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  const data = Buffer.from(page.html, 'utf8');
  reply
    .status(page.status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding, accept-language, cookie');
  if (page.retryAfter !== undefined) reply.header('retry-after', String(page.retryAfter));
  if (/\bbr\b/.test(accepts)) {
    const body = await brotliAsync(data, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    return reply.header('content-encoding', 'br').send(body);
  }
  if (/\bgzip\b/.test(accepts)) {
    return reply.header('content-encoding', 'gzip').send(await gzipAsync(data, { level: 6 }));
  }
  return reply.send(data);
}
