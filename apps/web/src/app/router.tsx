import { type ComponentType, lazy, Suspense, useEffect } from 'react';
// wouter's own route parser (its dependency): preloadRoute matches as the router does.
import { parse } from 'regexparam';
import { matchRoute, Redirect, Route, Router, Switch } from 'wouter';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n/i18n';
import { Footer } from './layout/footer';
import { Header } from './layout/header';
import { PaymentBanner } from './layout/payment-banner';
import { paths, sections } from './paths';
import { LandingRoute } from './routes/landing';

type Page = ComponentType;
type PageModule = { default: Page };

/**
 * A lazy page that can be loaded ahead: once `preload()` settled, React reads it at once
 * (a thenable that calls back synchronously), so hydrating a server-rendered page never
 * suspends on its chunk — the markup is live as soon as hydration ran, and a tap on it is
 * never lost to a boundary still waiting.
 */
function page(load: () => Promise<PageModule>) {
  let loaded: PageModule | null = null;
  const preload = () =>
    load().then((module) => {
      loaded = module;
      return module;
    });
  const Component = lazy(() =>
    loaded
      ? ({
          // biome-ignore lint/suspicious/noThenProperty: a settled thenable React reads at once.
          then: (resolve: (m: PageModule) => void) => resolve(loaded as PageModule),
        } as Promise<PageModule>)
      : preload(),
  );
  return Object.assign(Component, { preload });
}

// Only the landing page is in the first download; each other page is its own chunk.
const OrganizationsRoute = page(() => import('./routes/organizations'));
const ServicesRoute = page(() => import('./routes/services'));
const SlotsRoute = page(() => import('./routes/slots'));
const ContactRoute = page(() => import('./routes/contact'));
const LoginRoute = page(() => import('./routes/login'));
const AdminRoute = page(() => import('./routes/admin'));
const PlatformRoute = page(() => import('./routes/platform'));
const InviteRoute = page(() => import('./routes/invite'));
const ForgotPasswordRoute = page(() => import('./routes/forgot-password'));
const ResetPasswordRoute = page(() => import('./routes/reset-password'));
const NotFoundRoute = page(() => import('./routes/not-found'));
const TicketRoute = page(() => import('./routes/ticket'));
const MyBookingsRoute = page(() => import('./routes/my-bookings'));

/** The router's routes in its order with their lazy page (null: in the entry chunk). */
const PAGES: [pattern: string, page: { preload: () => Promise<unknown> } | null][] = [
  [paths.home.pattern, null],
  [paths.slider.pattern, null],
  [paths.organizations.pattern, OrganizationsRoute],
  [paths.slots.pattern, SlotsRoute],
  [paths.contact.pattern, ContactRoute],
  [paths.ticket.pattern, TicketRoute],
  [paths.myBookings.pattern, MyBookingsRoute],
  [paths.createService.pattern, null],
  [paths.login.pattern, LoginRoute],
  [paths.forgotPassword.pattern, ForgotPasswordRoute],
  [paths.resetPassword.pattern, ResetPasswordRoute],
  [paths.invite.pattern, InviteRoute],
  [paths.platform.pattern, PlatformRoute],
  ['/organization', AdminRoute],
  ['/organization/*', AdminRoute],
  [paths.services.pattern, ServicesRoute],
];

/** Loads the page of `pathname` (as the router will match it); settles when it is in. */
export function preloadRoute(pathname: string): Promise<unknown> {
  let path = pathname;
  try {
    path = pathname.includes('%') ? decodeURI(pathname) : pathname;
  } catch {
    // As wouter does: left as it is.
  }
  const found = PAGES.find(([pattern]) => matchRoute(parse, pattern, path)[0]);
  const target = found ? found[1] : NotFoundRoute;
  return target ? target.preload().catch(() => undefined) : Promise.resolve();
}

function Fallback() {
  const { t } = useI18n();
  return (
    <div className="container page-section">
      <Spinner label={t('common.loading')} />
    </div>
  );
}

/** Dispatched on the document once the page is live (the boot and main.tsx listen). */
export const LIVE_EVENT = 'qless-live';

/**
 * Marks the document once the page is live: its route chunk loaded and hydrated (this sits
 * inside the route's Suspense boundary, so its effect runs with the route's). Before that,
 * a server-rendered button does nothing (the boot holds the last tap and replays it on the
 * `qless-live` event); browser tests wait for the mark.
 */
function Live() {
  useEffect(() => {
    document.documentElement.dataset.live = '';
    document.dispatchEvent(new Event(LIVE_EVENT));
  }, []);
  return null;
}

/**
 * Path routes on the browser's location (wouter's default); the query is location.search.
 * The server renders with `ssrPath`/`ssrSearch`; the browser passes neither.
 */
export function AppRouter({ ssrPath, ssrSearch }: { ssrPath?: string; ssrSearch?: string }) {
  return (
    <Router {...(ssrPath === undefined ? {} : { ssrPath, ssrSearch: ssrSearch ?? '' })}>
      <Header />
      <PaymentBanner />
      <main id={sections.main} tabIndex={-1} className="site-main">
        <Suspense fallback={<Fallback />}>
          <Switch>
            <Route path={paths.home.pattern} component={LandingRoute} />
            <Route path={paths.slider.pattern} component={LandingRoute} />
            <Route path={paths.organizations.pattern} component={OrganizationsRoute} />
            <Route path={paths.slots.pattern} component={SlotsRoute} />
            <Route path={paths.contact.pattern} component={ContactRoute} />
            <Route path={paths.ticket.pattern} component={TicketRoute} />
            <Route path={paths.myBookings.pattern} component={MyBookingsRoute} />
            <Route path={paths.createService.pattern}>
              <Redirect to={paths.contact.build()} replace />
            </Route>
            <Route path={paths.login.pattern} component={LoginRoute} />
            <Route path={paths.forgotPassword.pattern} component={ForgotPasswordRoute} />
            <Route path={paths.resetPassword.pattern} component={ResetPasswordRoute} />
            <Route path={paths.invite.pattern} component={InviteRoute} />
            <Route path={paths.platform.pattern} component={PlatformRoute} />
            <Route path="/organization" component={AdminRoute} />
            <Route path="/organization/*" component={AdminRoute} />
            <Route path={paths.services.pattern} component={ServicesRoute} />
            <Route component={NotFoundRoute} />
          </Switch>
          <Live />
        </Suspense>
      </main>
      <Footer />
    </Router>
  );
}
