import { foldForSearch } from '@qless/contract/core';

/**
 * Substring match (spec 5) ignoring case and accents ("etat" finds "État"), and spaces
 * around the query — the same folding as the server's organization search.
 */
export function matchesQuery(text: string, query: string): boolean {
  return foldForSearch(text).includes(foldForSearch(query.trim()));
}
