import type { Organization } from '@qless/contract';

/** Case-insensitive substring match on the name (spec 5), ignoring surrounding spaces. */
export function filterOrganizations(list: readonly Organization[], query: string): Organization[] {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return [...list];
  return list.filter((o) => o.name.toLocaleLowerCase().includes(q));
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
