import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';
import { OrganizationList } from '../../features/organizations/components/organization-list';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';
import type { ServicesNavState } from './nav-state';

/** `?q=…&page=…` of the list's address: Back and shared links bring the same list back. */
function readListQuery(search: string): { q: string; page: number } {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  return {
    q: params.get('q') ?? '',
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

export default function OrganizationsRoute() {
  const [, navigate] = useLocation();
  const { q, page } = readListQuery(useSearch());
  useDocumentTitle('orgs.title');

  // Typing replaces the address (no history entry per pause); a new page is a new entry.
  // A pause in typing may end after the reader already opened a card of the list shown
  // meanwhile: the search then must not pull them back from the page they chose.
  const onSearch = useCallback(
    (next: string) => {
      const path = window.location.hash.replace(/^#/, '').split('?')[0];
      if (path !== paths.organizations.pattern) return;
      navigate(paths.organizations.build({ q: next }), { replace: true });
    },
    [navigate],
  );
  const onPage = useCallback(
    (next: number, replace = false) =>
      navigate(paths.organizations.build({ q, page: next }), { replace }),
    [navigate, q],
  );

  return (
    <OrganizationList
      query={q}
      page={page}
      onSearch={onSearch}
      onPage={onPage}
      hrefFor={(o) => href(paths.services.build(o.organization_id))}
      onOpen={(organization, shown, complete) => {
        const state: ServicesNavState = { organization, organizations: shown, complete };
        navigate(paths.services.build(organization.organization_id), { state });
      }}
    />
  );
}
