import { useState } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { useBranches } from '../../features/branches/api/get-branches';
import { BranchPicker } from '../../features/branches/components/branch-picker';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';
import type { BranchNavState } from './nav-state';
import { NotFound } from './not-found';

/** `/{orgId}/branches?city=…`: an organization's branches, to pick the one to go to. */
export default function BranchesRoute() {
  const { orgId = '' } = useParams<{ orgId: string }>();
  const city = new URLSearchParams(useSearch()).get('city')?.trim() ?? '';
  const [, navigate] = useLocation();
  const [reloadKey, setReloadKey] = useState(0);
  const state = useBranches(orgId, reloadKey);
  const name = state.data?.organization.name;
  useDocumentTitle(name ? 'picker.title' : 'orgs.title', { org: name ?? '' });
  return (
    <BranchPicker
      state={state}
      onRetry={() => setReloadKey((k) => k + 1)}
      city={city}
      hrefForCity={(c) => href(paths.branches.build(orgId, c ?? undefined))}
      // The same page filtered: the address changes in place (Back leaves the page).
      onCity={(c) => navigate(paths.branches.build(orgId, c ?? undefined), { replace: true })}
      hrefFor={(b) => href(paths.services.build(b.organization_id))}
      onOpen={(branch, head) => {
        const state: BranchNavState = { branchOf: head.organization_id };
        navigate(paths.services.build(branch.organization_id), { state });
      }}
      notFound={<NotFound what="organization" />}
    />
  );
}
