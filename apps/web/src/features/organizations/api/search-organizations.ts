import type { OrganizationListResponse } from '@qless/contract';
import { DEFAULT_ORGANIZATIONS_PAGE_SIZE } from '@qless/contract/core';
import { apiQuery, fetchQuery } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { embedded } from '../../../lib/embedded-data';
import { type AsyncState, useAsync } from '../../../lib/use-async';

export interface OrganizationPage {
  organizations: OrganizationListResponse['organizations'];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * One page of the organizations matching `query` on the server (accents, case, city and
 * kind of organization ignored or matched there, the same on every page).
 */
export async function searchOrganizations(
  query: string,
  page: number,
  signal?: AbortSignal,
): Promise<OrganizationPage> {
  return toPage(await fetchQuery(organizationSearchQuery(query, page), signal), page);
}

/** One page of a search, as the list asks it (and the server embeds it). */
export const organizationSearchQuery = (query: string, page: number) =>
  apiQuery<OrganizationListResponse>(
    apiPaths.organizationSearch({ q: query, page, page_size: DEFAULT_ORGANIZATIONS_PAGE_SIZE }),
  );

function toPage(body: OrganizationListResponse, page: number): OrganizationPage {
  return {
    organizations: body.organizations,
    total: body.total ?? body.organizations.length,
    page: body.page ?? page,
    pageSize: body.page_size ?? DEFAULT_ORGANIZATIONS_PAGE_SIZE,
  };
}

export function useOrganizationSearch(
  query: string,
  page: number,
  reloadKey: number,
): AsyncState<OrganizationPage> {
  return useAsync(
    (signal) => searchOrganizations(query, page, signal),
    [query, page, reloadKey],
    false,
    embedded(organizationSearchQuery(query, page), (body) => toPage(body, page)),
  );
}
