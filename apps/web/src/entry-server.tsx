import type { ApiGet, RenderOptions, RoutePlan, WebRenderBundle } from '@qless/contract/web-page';
import { prerenderToNodeStream } from 'react-dom/static';
// wouter's default route parser (its own dependency): the routes match as in the browser.
import { parse } from 'regexparam';
import { AppProvider } from './app/provider';
import { planRoute } from './app/route-data';
import { AppRouter } from './app/router';
import { ensureLocale } from './i18n/i18n';
import { TitleSink } from './lib/use-document-title';

async function toText(stream: AsyncIterable<Uint8Array | string>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of stream) {
    text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/** The route's data (its first API answers), status and lazy module; see app/route-data. */
export async function plan(
  pathname: string,
  search: string,
  get: ApiGet,
  now: Date,
): Promise<RoutePlan> {
  return planRoute(parse, pathname, search, get, now);
}

/**
 * The page's markup for `#root` and its title (what useDocumentTitle would set): every lazy route resolved (prerender waits for all of
 * them, where renderToString would write the Suspense fallback).
 */
export async function render(
  options: RenderOptions,
): Promise<{ html: string; title: string | null }> {
  let title: string | null = null;
  // French messages are a chunk of their own (decision 108): loaded once, then kept.
  await ensureLocale(options.locale);
  const { prelude } = await prerenderToNodeStream(
    <TitleSink.Provider value={(next) => (title = next)}>
      <AppProvider locale={options.locale} data={options.data}>
        <AppRouter ssrPath={options.pathname} ssrSearch={options.search.replace(/^\?/, '')} />
      </AppProvider>
    </TitleSink.Provider>,
    // Every boundary inline, in place: a large one would otherwise be written apart and
    // moved in by an inline script, which the CSP (script-src 'self') blocks.
    {
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      ...(options.onError ? { onError: options.onError } : {}),
    },
  );
  const html = await toText(prelude as AsyncIterable<Uint8Array | string>);
  return { html, title };
}

// What the server (apps/api/src/web-render.ts) loads this bundle as: checked here, at build.
({ plan, render }) satisfies WebRenderBundle;
