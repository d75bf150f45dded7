import type { Organization } from '@qless/contract';
import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';
import { searchedCity } from '../../features/branches/lib/searched-city';
import { OrganizationList } from '../../features/organizations/components/organization-list';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths, readListQuery } from '../paths';
import type { ServicesNavState } from './nav-state';

export default function OrganizationsRoute() {
  const [, navigate] = useLocation();
  const { q, page } = readListQuery(useSearch());
  useDocumentTitle('orgs.title');

  // Typing replaces the address (no history entry per pause); a new page is a new entry.
  // A pause in typing may end after the reader already opened a card of the list shown
  // meanwhile: the search then must not pull them back from the page they chose.
  const onSearch = useCallback(
    (next: string) => {
      if (window.location.pathname !== paths.organizations.pattern) return;
      navigate(paths.organizations.build({ q: next }), { replace: true });
    },
    [navigate],
  );
  const onPage = useCallback(
    (next: number, replace = false) =>
      navigate(paths.organizations.build({ q, page: next }), { replace }),
    [navigate, q],
  );

  // An organization of several branches opens its branch picker, on the city the
  // search named when it found the organization by a branch's city.
  const pageOf = (o: Organization) =>
    (o.branch_count ?? 1) > 1
      ? paths.branches.build(o.organization_id, searchedCity(o.branch_cities, q) ?? undefined)
      : paths.services.build(o.organization_id);

  return (
    <OrganizationList
      query={q}
      page={page}
      onSearch={onSearch}
      onPage={onPage}
      hrefFor={(o) => href(pageOf(o))}
      onOpen={(organization, shown, complete) => {
        if ((organization.branch_count ?? 1) > 1) {
          navigate(pageOf(organization));
          return;
        }
        const state: ServicesNavState = { organization, organizations: shown, complete };
        navigate(paths.services.build(organization.organization_id), { state });
      }}
    />
  );
}
