import { matchRoute } from 'wouter';
import { searchPath } from '../features/organizations/api/search-organizations';
import { stripDates } from '../features/slots/lib/calendar';
import { apiPaths } from '../lib/api-paths';
import type { EmbeddedData } from '../lib/embedded-data';
import { paths, readListQuery } from './paths';

/** One API answer as the server got it for a page: its status and its JSON body. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}
export type ApiGet = (apiPath: string) => Promise<ApiAnswer>;

export interface RoutePlan {
  /** 404 for an unknown path or an unknown id (the page then shows "not found"). */
  status: 200 | 404;
  data: EmbeddedData;
  /** The route's lazy module (its source path, as the build manifest names it). */
  module: string | null;
}

type Parser = Parameters<typeof matchRoute>[0];
type Params = Record<string, string | undefined>;

/** The router's routes in its order, each with its lazy module (null: in the entry chunk). */
const ROUTES: { pattern: string; module: string | null }[] = [
  { pattern: paths.home.pattern, module: null },
  { pattern: paths.slider.pattern, module: null },
  { pattern: paths.organizations.pattern, module: 'src/app/routes/organizations.tsx' },
  { pattern: paths.slots.pattern, module: 'src/app/routes/slots.tsx' },
  { pattern: paths.contact.pattern, module: 'src/app/routes/contact.tsx' },
  { pattern: paths.ticket.pattern, module: 'src/app/routes/ticket.tsx' },
  { pattern: paths.myBookings.pattern, module: 'src/app/routes/my-bookings.tsx' },
  { pattern: paths.createService.pattern, module: 'src/app/routes/contact.tsx' },
  { pattern: paths.login.pattern, module: 'src/app/routes/login.tsx' },
  { pattern: paths.forgotPassword.pattern, module: 'src/app/routes/forgot-password.tsx' },
  { pattern: paths.resetPassword.pattern, module: 'src/app/routes/reset-password.tsx' },
  { pattern: paths.invite.pattern, module: 'src/app/routes/invite.tsx' },
  { pattern: paths.platform.pattern, module: 'src/app/routes/platform.tsx' },
  { pattern: '/organization', module: 'src/app/routes/admin.tsx' },
  { pattern: '/organization/*', module: 'src/app/routes/admin.tsx' },
  { pattern: paths.services.pattern, module: 'src/app/routes/services.tsx' },
];
const NOT_FOUND_MODULE = 'src/app/routes/not-found.tsx';

const ok = (answer: ApiAnswer) => answer.status >= 200 && answer.status < 300;
/** What the page shows as "not found" (see lib/load-errors: 404, or 400 INVALID_ID). */
function notFound(answer: ApiAnswer): boolean {
  const code = (answer.body as { code?: unknown } | null)?.code;
  return answer.status === 404 || (answer.status === 400 && code === 'INVALID_ID');
}

/**
 * What the server renders a path with: the route's first API answers, asked exactly as its
 * hooks ask them (same paths, same query), so the browser's first render starts from them.
 * Only the public catalogue pages carry data; the others render as they start in a browser.
 */
export async function planRoute(
  parser: Parser,
  pathname: string,
  search: string,
  get: ApiGet,
  now: Date,
): Promise<RoutePlan> {
  const data: EmbeddedData = { now: now.toISOString(), api: {} };
  const keep = async (apiPath: string): Promise<ApiAnswer> => {
    const answer = await get(apiPath);
    if (ok(answer)) data.api[apiPath] = answer.body;
    else if (notFound(answer)) {
      const body = answer.body as { code?: unknown; message?: unknown } | null;
      data.errors ??= {};
      data.errors[apiPath] = {
        status: answer.status,
        code: typeof body?.code === 'string' ? body.code : null,
        message: typeof body?.message === 'string' ? body.message : 'Not found',
      };
    }
    // Any other failure is left out: the browser asks again and shows its own error.
    return answer;
  };

  // As wouter reads the location: decodeURI'd path and query (the hooks see these).
  const path = wouterDecode(pathname);
  const query = wouterDecode(search.replace(/^\?/, ''));
  const route = ROUTES.find((r) => matchRoute(parser, r.pattern, path)[0]);
  if (!route) return { status: 404, data, module: NOT_FOUND_MODULE };
  const params = (matchRoute(parser, route.pattern, path)[1] ?? {}) as Params;
  const found = (module: string | null): RoutePlan => ({ status: 200, data, module });
  const missing: RoutePlan = { status: 404, data, module: route.module };

  switch (route.pattern) {
    case paths.organizations.pattern: {
      const { q, page } = readListQuery(query);
      await keep(searchPath(q, page));
      return found(route.module);
    }
    case paths.services.pattern: {
      const orgId = params.orgId ?? '';
      // Not the switcher's list of every organization (670 KB at 100× the demo): the page
      // renders with its own organization there and asks for the list once it is live.
      const [organization] = await Promise.all([
        keep(apiPaths.organization(orgId)),
        keep(apiPaths.organizationServices(orgId)),
      ]);
      return notFound(organization) ? missing : found(route.module);
    }
    case paths.slots.pattern: {
      const serviceId = params.serviceId ?? '';
      const [service, slots] = await Promise.all([
        keep(apiPaths.service(serviceId)),
        keep(apiPaths.serviceSlots(serviceId)),
      ]);
      if (notFound(service)) return missing;
      if (ok(slots)) {
        // The week view asks the taken slots of the days it shows first: a phone's day
        // strip from the organization's today (what a 360 px first render shows).
        const body = slots.body as { today: string; bookable_until: string };
        const dates = stripDates(body.today, body.bookable_until, 0);
        const start = dates[0];
        const end = dates.at(-1);
        if (start && end) await keep(apiPaths.serviceBookings(serviceId, { start, end }));
      }
      return found(route.module);
    }
    default:
      return found(route.module);
  }
}

/** wouter's own decoding of the location (its paths.js): decodeURI, left as is when invalid. */
function wouterDecode(value: string): string {
  try {
    return value.includes('%') ? decodeURI(value) : value;
  } catch {
    return value;
  }
}
