import { LIVE_EVENT } from '@qless/contract/web-page';
import { Suspense, useEffect } from 'react';
// wouter's own route parser (its dependency): preloadRoute matches as the router does.
import { parse } from 'regexparam';
import { Redirect, Route, Router, Switch } from 'wouter';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n/i18n';
import { Footer } from './layout/footer';
import { Header } from './layout/header';
import { PaymentBanner } from './layout/payment-banner';
import { sections } from './paths';
import { RouteBoundary } from './route-error';
import { findRoute, NOT_FOUND_PAGE, ROUTES, wouterDecode } from './route-table';

/** Loads the page of `pathname` (as the router will match it); settles when it is in. */
export function preloadRoute(pathname: string): Promise<unknown> {
  const found = findRoute(parse, wouterDecode(pathname));
  // A redirect renders nothing to hydrate: the page it ends on loads as the router goes there.
  if (found?.route.redirect !== undefined) return Promise.resolve();
  const page = found ? found.route.page : NOT_FOUND_PAGE;
  return page.preload().catch(() => undefined);
}

function Fallback() {
  const { t } = useI18n();
  return (
    <div className="container page-section">
      <Spinner label={t('common.loading')} />
    </div>
  );
}

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
        <RouteBoundary>
          <Suspense fallback={<Fallback />}>
            <Switch>
              {ROUTES.map((route) =>
                route.redirect === undefined ? (
                  // Keyed by page: two patterns of one page (/, /slider) keep it mounted.
                  <Route
                    key={route.page.name}
                    path={route.pattern}
                    component={route.page.Component}
                  />
                ) : (
                  <Route key={route.pattern} path={route.pattern}>
                    <Redirect to={route.redirect} replace />
                  </Route>
                ),
              )}
              <Route component={NOT_FOUND_PAGE.Component} />
            </Switch>
            <Live />
          </Suspense>
        </RouteBoundary>
      </main>
      <Footer />
    </Router>
  );
}
