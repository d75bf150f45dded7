import type { ApiAnswer, ApiGet, EmbeddedData, RoutePlan } from '@qless/contract/web-page';
import type { matchRoute } from 'wouter';
import type { ApiQuery } from '../lib/api-client';
import type { Answer } from './first-data';
import { findRoute, NOT_FOUND_PAGE, wouterDecode } from './route-table';

type Parser = Parameters<typeof matchRoute>[0];

const ok = (answer: ApiAnswer) => answer.status >= 200 && answer.status < 300;
/** What the page shows as "not found" (see lib/load-errors: 404, or 400 INVALID_ID). */
function notFound(answer: ApiAnswer): boolean {
  const code = (answer.body as { code?: unknown } | null)?.code;
  return answer.status === 404 || (answer.status === 400 && code === 'INVALID_ID');
}

/**
 * What the server renders a path with: the route's first data (route-table.tsx), its answers
 * kept under the paths its hooks ask, so the browser's first render starts from them. Only
 * the public catalogue pages carry data; the others render as they start in a browser.
 */
export async function planRoute(
  parser: Parser,
  pathname: string,
  search: string,
  get: ApiGet,
  now: Date,
): Promise<RoutePlan> {
  const data: EmbeddedData = { now: now.toISOString(), api: {} };
  const ask = async <B>(query: ApiQuery<B>): Promise<Answer<B>> => {
    const answer = await get(query.path);
    if (ok(answer)) {
      data.api[query.path] = answer.body;
      // The server's own route answered: its body is the query's (the hook reads it so too).
      return { ok: true, body: answer.body as B };
    }
    if (notFound(answer)) {
      const body = answer.body as { code?: unknown; message?: unknown } | null;
      data.errors ??= {};
      data.errors[query.path] = {
        status: answer.status,
        code: typeof body?.code === 'string' ? body.code : null,
        message: typeof body?.message === 'string' ? body.message : 'Not found',
      };
      return { ok: false, notFound: true };
    }
    // Any other failure is left out: the browser asks again and shows its own error.
    return { ok: false, notFound: false };
  };

  // As wouter reads the location: decodeURI'd path and query (the hooks see these).
  const found = findRoute(parser, wouterDecode(pathname));
  if (!found) return { status: 404, data, module: NOT_FOUND_PAGE.module };
  const { route, params } = found;
  const outcome = route.data
    ? await route.data({ params, query: wouterDecode(search.replace(/^\?/, '')), ask })
    : 'found';
  return { status: outcome === 'not-found' ? 404 : 200, data, module: route.page.module };
}
