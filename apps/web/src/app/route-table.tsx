import { type ComponentType, lazy } from 'react';
import { matchRoute } from 'wouter';
import type { FirstData, FirstDataContext, FirstDataOutcome } from './first-data';
import { paths } from './paths';
import { LandingRoute } from './routes/landing';

type PageModule = { default: ComponentType };

/** A page of the router: its component and its name (the same for the same page). */
export interface Page {
  name: string;
  Component: ComponentType;
  /**
   * Its module as the build manifest names it (the server links its chunks), null when in the
   * entry chunk.
   */
  module: string | null;
  /** Loads its chunk; settles when it is in (at once for a page of the entry chunk). */
  preload: () => Promise<unknown>;
  /**
   * Loads its chunk again after a failure (seen in a trial: offline, a tap on an organization left
   * a white page). React keeps a lazy component's failure for good, so the page renders a
   * fresh one from then on; settles when the chunk is in.
   */
  retry: () => Promise<unknown>;
}

/** A page in the entry chunk (the landing page is in the first download). */
function eagerPage(name: string, Component: ComponentType): Page {
  const preload = () => Promise.resolve();
  return { name, Component, module: null, preload, retry: preload };
}

/**
 * A page in its own chunk, `app/routes/{name}.tsx` (a unit test checks that `load` imports
 * that file: TypeScript cannot see an import's path). Once `preload()` settled, React reads
 * it at once (a thenable that calls back synchronously), so hydrating a server-rendered page
 * never suspends on its chunk — the markup is live as soon as hydration ran, and a tap on it
 * is never lost to a boundary still waiting.
 */
function lazyPage(name: string, load: () => Promise<PageModule>): Page {
  let loaded: PageModule | null = null;
  const preload = () =>
    load().then((module) => {
      loaded = module;
      return module;
    });
  const fresh = () =>
    lazy(() =>
      loaded
        ? ({
            // biome-ignore lint/suspicious/noThenProperty: a settled thenable React reads at once.
            then: (resolve: (m: PageModule) => void) => resolve(loaded as PageModule),
          } as Promise<PageModule>)
        : preload(),
    );
  let Lazy = fresh();
  // The router holds this one component; it renders whichever lazy one is current. A wrapper
  // adds no markup, so the server's HTML and the hydrating render still match.
  // biome-ignore lint/correctness/noComponentHookFactories: made once per page at module load, as lazy() is.
  const Component = () => <Lazy />;
  Component.displayName = `Page(${name})`;
  const retry = () => {
    if (!loaded) Lazy = fresh();
    return preload();
  };
  return { name, Component, module: `src/app/routes/${name}.tsx`, preload, retry };
}

/** The first data as the planner runs it: the route's parameters as the router matched them. */
type RouteData = (
  context: Omit<FirstDataContext<string>, 'params'> & {
    params: Record<string, string | undefined>;
  },
) => Promise<FirstDataOutcome>;

export interface AppRoute {
  pattern: string;
  /** The page shown; for a redirect, the page it ends on (the server preloads its chunk). */
  page: Page;
  /** Where the route sends the reader instead (history replaced). */
  redirect?: string;
  /** The API answers the page starts from; absent in the browser's build (server only). */
  data?: RouteData;
}

/**
 * One route. `data` is a server-only module (`import.meta.env.SSR ? () => import(…) :
 * undefined`, so the browser's build has neither it nor the chunks it would split off) whose
 * `FirstData` was declared for this very pattern: a loader moved to another route, or a
 * route's pattern changed under its loader, fails the type check.
 */
function route<P extends string>(
  pattern: P,
  def: {
    page: Page;
    redirect?: string;
    // NoInfer: the pattern alone says P; the loader must have been declared for it.
    data?: (() => Promise<{ default: FirstData<NoInfer<P>> }>) | undefined;
  },
): AppRoute {
  const { data, ...rest } = def;
  if (!data) return { pattern, ...rest };
  return {
    pattern,
    ...rest,
    data: async (context) => {
      const { load } = (await data()).default;
      // The router matched these parameters with this very pattern.
      return load({ ...context, params: context.params as FirstDataContext<P>['params'] });
    },
  };
}

// Only the landing page is in the first download; each other page is its own chunk.
const LandingPage = eagerPage('landing', LandingRoute);
const OrganizationsPage = lazyPage('organizations', () => import('./routes/organizations'));
const ServicesPage = lazyPage('services', () => import('./routes/services'));
// An organization's branches, to pick one.
const BranchesPage = lazyPage('branches', () => import('./routes/branches'));
const SlotsPage = lazyPage('slots', () => import('./routes/slots'));
const ContactPage = lazyPage('contact', () => import('./routes/contact'));
// The privacy policy (decision 031).
const PrivacyPage = lazyPage('privacy', () => import('./routes/privacy'));
const LoginPage = lazyPage('login', () => import('./routes/login'));
const AdminPage = lazyPage('admin', () => import('./routes/admin'));
const PlatformPage = lazyPage('platform', () => import('./routes/platform'));
const InvitePage = lazyPage('invite', () => import('./routes/invite'));
const ForgotPasswordPage = lazyPage('forgot-password', () => import('./routes/forgot-password'));
const ResetPasswordPage = lazyPage('reset-password', () => import('./routes/reset-password'));
const TicketPage = lazyPage('ticket', () => import('./routes/ticket'));
const MyBookingsPage = lazyPage('my-bookings', () => import('./routes/my-bookings'));
// The same-day queue's public pages.
const BoardPage = lazyPage('board', () => import('./routes/board'));
const JoinPage = lazyPage('join', () => import('./routes/join'));
const VisitPage = lazyPage('visit', () => import('./routes/visit'));
const KioskPage = lazyPage('kiosk', () => import('./routes/kiosk'));
const FollowPage = lazyPage('follow', () => import('./routes/follow'));
// A word after the visit.
const FeedbackPage = lazyPage('feedback', () => import('./routes/feedback'));

/** What any path no route matches shows (status 404 on the server). */
export const NOT_FOUND_PAGE = lazyPage('not-found', () => import('./routes/not-found'));

/**
 * Every route of the app, in the router's order (the first match wins): the browser's
 * `<Switch>`, its preloading before hydration and the server's plan are all read from here.
 */
export const ROUTES: readonly AppRoute[] = [
  route(paths.home.pattern, { page: LandingPage }),
  route(paths.slider.pattern, { page: LandingPage }),
  route(paths.organizations.pattern, {
    page: OrganizationsPage,
    data: import.meta.env.SSR ? () => import('./routes/organizations-data') : undefined,
  }),
  route(paths.slots.pattern, {
    page: SlotsPage,
    data: import.meta.env.SSR ? () => import('./routes/slots-data') : undefined,
  }),
  route(paths.contact.pattern, { page: ContactPage }),
  route(paths.privacy.pattern, {
    page: PrivacyPage,
    data: import.meta.env.SSR ? () => import('./routes/privacy-data') : undefined,
  }),
  route(paths.ticket.pattern, {
    page: TicketPage,
    data: import.meta.env.SSR ? () => import('./routes/ticket-data') : undefined,
  }),
  route(paths.myBookings.pattern, { page: MyBookingsPage }),
  route(paths.board.pattern, {
    page: BoardPage,
    data: import.meta.env.SSR ? () => import('./routes/board-data') : undefined,
  }),
  route(paths.kiosk.pattern, { page: KioskPage }),
  route(paths.follow.pattern, { page: FollowPage }),
  route(paths.join.pattern, {
    page: JoinPage,
    data: import.meta.env.SSR ? () => import('./routes/join-data') : undefined,
  }),
  route(paths.visit.pattern, { page: VisitPage }),
  route(paths.feedback.pattern, {
    page: FeedbackPage,
    data: import.meta.env.SSR ? () => import('./routes/feedback-data') : undefined,
  }),
  route(paths.createService.pattern, { page: ContactPage, redirect: paths.contact.build() }),
  route(paths.login.pattern, { page: LoginPage }),
  route(paths.forgotPassword.pattern, { page: ForgotPasswordPage }),
  route(paths.resetPassword.pattern, { page: ResetPasswordPage }),
  route(paths.invite.pattern, { page: InvitePage }),
  route(paths.platform.pattern, { page: PlatformPage }),
  route('/organization', { page: AdminPage }),
  route('/organization/*', { page: AdminPage }),
  route(paths.services.pattern, {
    page: ServicesPage,
    data: import.meta.env.SSR ? () => import('./routes/services-data') : undefined,
  }),
  route(paths.branches.pattern, {
    page: BranchesPage,
    data: import.meta.env.SSR ? () => import('./routes/branches-data') : undefined,
  }),
];

type Parser = Parameters<typeof matchRoute>[0];

/** The route of `pathname` (decoded as wouter decodes it: `wouterDecode`), as the router matches it. */
export function findRoute(
  parser: Parser,
  pathname: string,
): { route: AppRoute; params: Record<string, string | undefined> } | null {
  for (const route of ROUTES) {
    const [matched, params] = matchRoute(parser, route.pattern, pathname);
    if (matched) return { route, params: (params ?? {}) as Record<string, string | undefined> };
  }
  return null;
}

/** The page the router shows for `pathname` (the not-found page when no route matches). */
export function pageOf(parser: Parser, pathname: string): Page {
  const found = findRoute(parser, wouterDecode(pathname));
  return found ? found.route.page : NOT_FOUND_PAGE;
}

/** wouter's own decoding of the location (its paths.js): decodeURI, left as is when invalid. */
export function wouterDecode(value: string): string {
  try {
    return value.includes('%') ? decodeURI(value) : value;
  } catch {
    return value;
  }
}
