import type { Organization } from '@qless/contract';
import { matchesQuery } from '../../../lib/search';

/** Spec 5: the organization search matches on the name. */
export function filterOrganizations(list: readonly Organization[], query: string): Organization[] {
  return list.filter((o) => matchesQuery(o.name, query));
}

export interface Page<T> {
  items: T[];
  page: number;
  pageCount: number;
}

/** 1-based page, clamped into range; an empty list has one (empty) page. */
export function paginate<T>(list: readonly T[], page: number, size: number): Page<T> {
  const pageCount = Math.max(1, Math.ceil(list.length / size));
  const current = Math.min(Math.max(1, Math.floor(page)), pageCount);
  const start = (current - 1) * size;
  return { items: list.slice(start, start + size), page: current, pageCount };
}
