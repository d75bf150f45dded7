import { lazy, type ReactNode, Suspense, useEffect, useRef } from 'react';
import { Redirect, Route, Switch, useLocation, useParams } from 'wouter';
import { Alert } from '../../components/ui/alert';
import { Spinner } from '../../components/ui/spinner';
import { SessionProvider, useSession } from '../../features/auth/components/session-provider';
import { SignedOut } from '../../features/auth/components/signed-out';
import { AdminOnly } from '../../features/organization-admin/components/admin-only';
import {
  AreaLayout,
  type AreaNavItem,
} from '../../features/organization-admin/components/area-layout';
import { BookingsScreen } from '../../features/organization-admin/components/bookings-screen';
import { Dashboard } from '../../features/organization-admin/components/dashboard';
import {
  OrganizationDataProvider,
  useOrganizationData,
  WithOrganizationData,
} from '../../features/organization-admin/components/organization-data';
import { ProfileScreen } from '../../features/organization-admin/components/profile-screen';
import { ServicesScreen } from '../../features/organization-admin/components/services-screen';
import type { MessageKey } from '../../i18n/en';
import { useI18n } from '../../i18n/i18n';
import { setActingBranch } from '../../lib/acting-branch';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AreaStyles } from '../layout/area-styles';
import { collapseSlashes, href, paths } from '../paths';

// Screens built in their own branches, each its own chunk within the area.
const TodayRoute = lazy(() => import('./admin-today'));
const StaffRoute = lazy(() => import('./admin-staff'));
const QueueRoute = lazy(() => import('./admin-queue'));
const QueueSetupRoute = lazy(() => import('./admin-queue-setup'));
const InsightRoute = lazy(() => import('./admin-insight'));
const BranchesRoute = lazy(() => import('./admin-branches'));
const AuditRoute = lazy(() => import('./admin-audit'));

export default function AdminRoute() {
  return (
    <SessionProvider>
      <AreaStyles />
      <OrganizationArea />
    </SessionProvider>
  );
}

function Loading() {
  const { t } = useI18n();
  return <Spinner label={t('common.loading')} />;
}

function OrganizationArea() {
  const { t } = useI18n();
  const [location, navigate] = useLocation();
  const session = useSession();
  useDocumentTitle('area.title');

  const normalized = collapseSlashes(location);
  if (normalized !== null) return <Redirect to={normalized} replace />;

  const { state } = session;
  if (state.status === 'loading') {
    return (
      <div className="container page-section">
        <Loading />
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="container page-section page-section--narrow">
        <Alert tone="error">
          <p>{t('error.network')}</p>
          <button type="button" className="btn btn--secondary" onClick={() => session.refresh()}>
            {t('common.retry')}
          </button>
        </Alert>
      </div>
    );
  }
  if (state.status === 'signed-out') {
    return <SignedOut expired={state.expired} loginHref={href(paths.login.build())} />;
  }

  const { user, organization } = state;
  if (user.role === 'operator' || !organization) {
    return (
      <div className="container page-section page-section--narrow">
        <div className="form-card">
          <p className="page-lead">{t('area.operator.body')}</p>
          <a className="btn btn--primary" href={href(paths.platform.build())}>
            {t('area.operator.link')}
          </a>
        </div>
      </div>
    );
  }

  // An organization admin, or a branch manager for their branch (decision 024).
  const isAdmin = user.role === 'org_admin' || user.role === 'branch_manager';
  const item = (path: string, label: MessageKey, current: boolean): AreaNavItem => ({
    href: href(path),
    label,
    current,
  });
  const at = (path: string) => location === path || location === `${path}/`;
  const items: AreaNavItem[] = isAdmin
    ? [
        item(paths.adminDashboard.build(), 'area.nav.dashboard', at(paths.adminDashboard.build())),
        item(paths.adminServices.build(), 'area.nav.services', at(paths.adminServices.build())),
        item(
          paths.adminBookings.build(),
          'area.nav.bookings',
          location.startsWith(paths.adminBookings.build()),
        ),
        item(paths.adminToday.build(), 'area.nav.today', at(paths.adminToday.build())),
        item(paths.adminQueue.build(), 'area.nav.queue', at(paths.adminQueue.build())),
        item(
          paths.adminQueueSetup.build(),
          'area.nav.queueSetup',
          at(paths.adminQueueSetup.build()),
        ),
        item(paths.adminInsight.build(), 'area.nav.insight', at(paths.adminInsight.build())),
        item(paths.adminStaff.build(), 'area.nav.staff', at(paths.adminStaff.build())),
        item(paths.adminBranches.build(), 'area.nav.branches', at(paths.adminBranches.build())),
        item(paths.adminAudit.build(), 'area.nav.audit', at(paths.adminAudit.build())),
        item(paths.adminProfile.build(), 'area.nav.profile', at(paths.adminProfile.build())),
      ]
    : [
        item(paths.adminToday.build(), 'area.nav.today', at(paths.adminToday.build())),
        item(paths.adminQueue.build(), 'area.nav.queue', at(paths.adminQueue.build())),
      ];

  return (
    <AreaLayout
      organizationName={organization.name}
      logoUrl={organization.image_url}
      email={user.email}
      role={user.role}
      items={items}
      location={location}
      branches={state.branches}
      currentBranchId={organization.id}
      onSwitchBranch={(id) => {
        // This tab acts on that branch from now on; every screen reads it afresh.
        setActingBranch(id);
        window.location.reload();
      }}
      onLogout={async () => {
        await session.signOut();
        navigate(paths.login.build());
      }}
    >
      <Suspense fallback={<Loading />}>
        {isAdmin ? (
          <OrganizationDataProvider>
            <AdminScreens
              organizationId={organization.id}
              onProfileSaved={() => session.refresh()}
            />
          </OrganizationDataProvider>
        ) : (
          <StaffScreens />
        )}
      </Suspense>
    </AreaLayout>
  );
}

/** Desk staff: Today only; the admin screens answer with a refusal, never a blank. */
function StaffScreens() {
  return (
    <Switch>
      <Route path={paths.adminToday.pattern} component={TodayRoute} />
      <Route path={paths.adminQueue.pattern} component={QueueRoute} />
      <Route path={paths.adminDashboard.pattern}>
        <Redirect to={paths.adminToday.build()} replace />
      </Route>
      <Route>
        <AdminOnly todayHref={href(paths.adminToday.build())} />
      </Route>
    </Switch>
  );
}

function Titled({ title, children }: { title: MessageKey; children: ReactNode }) {
  useDocumentTitle(title);
  return <>{children}</>;
}

function AdminScreens({
  organizationId,
  onProfileSaved,
}: {
  organizationId: string;
  onProfileSaved: () => Promise<void>;
}) {
  const { reload } = useOrganizationData();
  const [location] = useLocation();
  const shown = useRef(location);
  // The area stays open all day: coming back to the Dashboard must show the bookings and
  // the verification that came meanwhile. So every move within the area reads the shared
  // data again, in the background (the first screen has the provider's own first read).
  useEffect(() => {
    if (shown.current === location) return;
    shown.current = location;
    void reload();
  }, [location, reload]);
  const attention = href(paths.adminBookings.build('attention'));
  return (
    <Switch>
      <Route path={paths.adminDashboard.pattern}>
        <Titled title="area.nav.dashboard">
          <WithOrganizationData>
            {(data, reloadData) => (
              <Dashboard
                data={data}
                links={{
                  profile: href(paths.adminProfile.build()),
                  bookings: href(paths.adminBookings.build()),
                  attention,
                }}
                onChanged={reloadData}
              />
            )}
          </WithOrganizationData>
        </Titled>
      </Route>
      <Route path={paths.adminServices.pattern}>
        <Titled title="area.nav.services">
          <WithOrganizationData>
            {(data, reloadData) => (
              <ServicesScreen
                organizationId={organizationId}
                services={data.services}
                attentionHref={attention}
                onChanged={reloadData}
              />
            )}
          </WithOrganizationData>
        </Titled>
      </Route>
      <Route path={paths.adminBookings.pattern}>
        <Titled title="area.nav.bookings">
          <Bookings organizationId={organizationId} />
        </Titled>
      </Route>
      {/* These set their own titles. */}
      <Route path={paths.adminToday.pattern} component={TodayRoute} />
      <Route path={paths.adminQueue.pattern} component={QueueRoute} />
      <Route path={paths.adminQueueSetup.pattern} component={QueueSetupRoute} />
      <Route path={paths.adminInsight.pattern} component={InsightRoute} />
      <Route path={paths.adminStaff.pattern} component={StaffRoute} />
      <Route path={paths.adminBranches.pattern} component={BranchesRoute} />
      <Route path={paths.adminAudit.pattern} component={AuditRoute} />
      <Route path={paths.adminProfile.pattern}>
        <Titled title="profile.title">
          <WithOrganizationData>
            {(data) => (
              <ProfileScreen
                profile={data.organizationData}
                attentionHref={attention}
                onSaved={async () => {
                  await Promise.all([reload(), onProfileSaved()]);
                }}
              />
            )}
          </WithOrganizationData>
        </Titled>
      </Route>
      <Route>
        <AreaNotFound />
      </Route>
    </Switch>
  );
}

function Bookings({ organizationId }: { organizationId: string }) {
  const { filter } = useParams<{ filter?: string }>();
  return (
    <WithOrganizationData>
      {(data) => (
        <BookingsScreen
          // A new link (all ↔ needing attention) starts the filters afresh.
          key={filter ?? 'all'}
          organizationId={organizationId}
          timeZone={data.organizationData.time_zone}
          attentionOnly={filter === 'attention'}
        />
      )}
    </WithOrganizationData>
  );
}

function AreaNotFound() {
  const { t } = useI18n();
  return (
    <section className="panel">
      <h1 className="page-title">{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <a href={href(paths.adminDashboard.build())}>{t('area.nav.dashboard')}</a>
    </section>
  );
}
