/**
 * Server rendering of the web app (decisions 107, 108, 109): what the API server and the web
 * app's server bundle (`apps/web/dist-ssr/entry-server.js`) say to each other, and the names
 * the served page, its boot script and the app share. Declared here once: the server cannot
 * import the web app's sources (React, DOM types), and both already depend on the contract.
 * No zod and no DOM here: the web's entry chunk imports the constants.
 */

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: unknown): value is Locale {
  return value === 'en' || value === 'fr';
}

/** The app writes the reader's language here; the server renders pages in it. */
export const LOCALE_COOKIE = 'qless.lang';

/** The id of `<script type="application/json">` holding the page's {@link EmbeddedData}. */
export const EMBEDDED_DATA_ID = 'qless-data';

/**
 * Dispatched on the document once the page is live (its route hydrated): the boot script
 * replays the taps it held, main.tsx takes over links.
 */
export const LIVE_EVENT = 'qless-live';

/**
 * `<meta name="qless-preload" content="/assets/…">`: a chunk the page's boot script asks for
 * once the page has painted (the build names the entry's, the server the route's).
 */
export const PRELOAD_META = 'qless-preload';

/** In the browser: the stored choice first, then the browser's languages, then English. */
export function detectLocale(stored: string | null, languages: readonly string[]): Locale {
  if (isLocale(stored)) return stored;
  for (const lang of languages) {
    const base = lang.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return 'en';
}

/** On the server: the cookie the app writes, else Accept-Language (by weight), else English. */
export function pickLocale(cookie: string | undefined, acceptLanguage: string | undefined): Locale {
  if (isLocale(cookie)) return cookie;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return {
        base: tag.toLowerCase().split('-')[0],
        weight: Number.isNaN(weight) ? 0 : weight,
        index,
      };
    })
    .filter((l) => l.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { base } of ranked) if (isLocale(base)) return base;
  return 'en';
}

/** One API answer as the server got it for a page: its status and its JSON body. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}
/** How the bundle asks the server's own API (`app.inject`: the routes the browser hits). */
export type ApiGet = (apiPath: string) => Promise<ApiAnswer>;

/** An answer that was an error (an unknown id's 404), as the API's error body said. */
export interface EmbeddedError {
  status: number;
  code: string | null;
  message: string;
}

/**
 * What the server rendered a page with: its first API answers keyed by API path and query
 * exactly as the web app asks them, and the time it rendered at (so "now"-dependent markup
 * hydrates identically).
 */
export interface EmbeddedData {
  /** ISO time the server rendered at. */
  now?: string;
  api: Record<string, unknown>;
  errors?: Record<string, EmbeddedError>;
}

export interface RoutePlan {
  /** 404 for an unknown path or an unknown id (the page then shows "not found"). */
  status: 200 | 404;
  data: EmbeddedData;
  /** The route's lazy module (its source path, as the build manifest names it). */
  module: string | null;
}

export interface RenderOptions {
  pathname: string;
  search: string;
  locale: Locale;
  data: EmbeddedData;
  /** Errors React recovered from (the browser then renders that part itself). */
  onError?: (error: unknown) => void;
}

/** What the web's server bundle exports (the server checks the shape when it loads it). */
export interface WebRenderBundle {
  /** The route's first data, status and lazy module. */
  plan(pathname: string, search: string, get: ApiGet, now: Date): Promise<RoutePlan>;
  /** The page's markup for `#root` and its title. */
  render(options: RenderOptions): Promise<{ html: string; title: string | null }>;
}
