import { useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { LoadError } from '../../components/ui/load-error';
import { Spinner } from '../../components/ui/spinner';
import { pickerOf } from '../../features/branches/lib/picker-of';
import { useOrganization } from '../../features/organizations/api/get-organization';
import { useOrganizations } from '../../features/organizations/api/get-organizations';
import { ServiceList } from '../../features/services/components/service-list';
import { useI18n } from '../../i18n/i18n';
import { isNotFound } from '../../lib/load-errors';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useHydrated } from '../../lib/use-hydrated';
import { href, paths } from '../paths';
import { readBranchState, readServicesState, type SlotsNavState } from './nav-state';
import { NotFound } from './not-found';

export default function ServicesRoute() {
  const { orgId = '' } = useParams<{ orgId: string }>();
  const [, navigate] = useLocation();
  const { t } = useI18n();
  // Navigation state is a head start; a deep link or refresh loads the same data.
  const [navState] = useState(readServicesState);
  // From the branch picker: a head with no branch name is one of several all the same.
  const [branchState] = useState(readBranchState);
  const [picked, setPicked] = useState(navState?.organization ?? null);
  const [reloadKey, setReloadKey] = useState(0);
  const organization = useOrganization(orgId, picked, reloadKey);
  // One page of a search is not the whole list the switcher offers: load it then.
  const organizations = useOrganizations(
    navState?.complete === false ? null : navState?.organizations,
  );
  // The server renders the switcher with its own organization only (the list is not in the
  // page): a reload's navigation state may hold the list, shown once hydrated, not during.
  const hydrated = useHydrated();
  const org = organization.data ?? null;
  useDocumentTitle(org ? 'services.title' : 'services.titleFallback', { org: org?.name ?? '' });

  // An unknown organization (a stale or mistyped link) is not "no services" of another one.
  if (isNotFound(organization.error)) return <NotFound what="organization" />;
  if (organization.status === 'loading') {
    return (
      <div className="container page-section">
        <Spinner label={t('orgs.loading')} />
      </div>
    );
  }
  if (!org) {
    return (
      <div className="container page-section">
        <h1 className="page-title">{t('services.titleFallback')}</h1>
        <LoadError
          message={t('services.orgLoadFailed')}
          retryLabel={t('common.retry')}
          onRetry={() => setReloadKey((k) => k + 1)}
        />
      </div>
    );
  }

  // One branch of several; a one-place organization shows nothing more.
  const pickerId = pickerOf(org, hydrated ? (branchState?.branchOf ?? null) : null);

  return (
    <ServiceList
      key={orgId}
      branch={
        pickerId
          ? {
              name: org.branch_name,
              pickerHref: href(paths.branches.build(pickerId)),
              onPicker: () => navigate(paths.branches.build(pickerId)),
            }
          : null
      }
      orgId={orgId}
      organization={org}
      organizations={hydrated ? (organizations.data ?? []) : []}
      onSwitchOrganization={(next) => {
        setPicked(next);
        navigate(paths.services.build(next.organization_id), {
          state: { organization: next, organizations: organizations.data ?? [] },
          replace: true,
        });
      }}
      hrefFor={(s) => href(paths.slots.build(s.service_id))}
      onOpen={(service) => {
        const state: SlotsNavState = { organization: org, service };
        navigate(paths.slots.build(service.service_id), { state });
      }}
    />
  );
}
