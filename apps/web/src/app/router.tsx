import { lazy, Suspense, useEffect } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n/i18n';
import { Footer } from './layout/footer';
import { Header } from './layout/header';
import { PaymentBanner } from './layout/payment-banner';
import { paths, sections } from './paths';
import { LandingRoute } from './routes/landing';

// Only the landing page is in the first download; each other page is its own chunk.
const OrganizationsRoute = lazy(() => import('./routes/organizations'));
const ServicesRoute = lazy(() => import('./routes/services'));
const SlotsRoute = lazy(() => import('./routes/slots'));
const ContactRoute = lazy(() => import('./routes/contact'));
const LoginRoute = lazy(() => import('./routes/login'));
const AdminRoute = lazy(() => import('./routes/admin'));
const PlatformRoute = lazy(() => import('./routes/platform'));
const InviteRoute = lazy(() => import('./routes/invite'));
const ForgotPasswordRoute = lazy(() => import('./routes/forgot-password'));
const ResetPasswordRoute = lazy(() => import('./routes/reset-password'));
const NotFoundRoute = lazy(() => import('./routes/not-found'));
const TicketRoute = lazy(() => import('./routes/ticket'));
const MyBookingsRoute = lazy(() => import('./routes/my-bookings'));

function Fallback() {
  const { t } = useI18n();
  return (
    <div className="container page-section">
      <Spinner label={t('common.loading')} />
    </div>
  );
}

/**
 * Path routes on the browser's location (wouter's default); the query is location.search.
 * The server renders with `ssrPath`/`ssrSearch`; the browser passes neither.
 */
/**
 * Marks the document once the page is live: its route chunk loaded and hydrated (this sits
 * inside the route's Suspense boundary, so its effect runs with the route's). Before that,
 * a server-rendered button does nothing; browser tests wait for the mark.
 */
function Live() {
  useEffect(() => {
    document.documentElement.dataset.live = '';
  }, []);
  return null;
}

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
