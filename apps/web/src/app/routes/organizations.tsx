import { useLocation } from 'wouter';
import { OrganizationList } from '../../features/organizations/components/organization-list';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';
import type { ServicesNavState } from './nav-state';

export default function OrganizationsRoute() {
  const [, navigate] = useLocation();
  useDocumentTitle('orgs.title');
  return (
    <OrganizationList
      hrefFor={(o) => href(paths.services.build(o.organization_id))}
      onOpen={(organization, organizations) => {
        const state: ServicesNavState = { organization, organizations };
        navigate(paths.services.build(organization.organization_id), { state });
      }}
    />
  );
}
