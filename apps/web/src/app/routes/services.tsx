import { useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { useOrganization } from '../../features/organizations/api/get-organization';
import { useOrganizations } from '../../features/organizations/api/get-organizations';
import { ServiceList } from '../../features/services/components/service-list';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';
import { readServicesState, type SlotsNavState } from './nav-state';

export default function ServicesRoute() {
  const { orgId = '' } = useParams<{ orgId: string }>();
  const [, navigate] = useLocation();
  // Navigation state is a head start; a deep link or refresh loads the same data.
  const [navState] = useState(readServicesState);
  const [picked, setPicked] = useState(navState?.organization ?? null);
  const organization = useOrganization(orgId, picked);
  const organizations = useOrganizations(navState?.organizations);
  const org = organization.data ?? null;
  useDocumentTitle('services.title', { org: org?.name ?? '' });

  return (
    <ServiceList
      key={orgId}
      orgId={orgId}
      organization={org}
      organizations={organizations.data ?? []}
      onSwitchOrganization={(next) => {
        setPicked(next);
        navigate(paths.services.build(next.organization_id), {
          state: { organization: next, organizations: organizations.data ?? [] },
          replace: true,
        });
      }}
      hrefFor={(s) => href(paths.slots.build(s.service_id))}
      onOpen={(service) => {
        if (!org) return;
        const state: SlotsNavState = { organization: org, service };
        navigate(paths.slots.build(service.service_id), { state });
      }}
    />
  );
}
