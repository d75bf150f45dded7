import type { Organization } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { filterOrganizations, paginate } from './filter';

const org = (name: string) => ({ name }) as Organization;

describe('filterOrganizations', () => {
  const list = [org('Afriland First Bank'), org('Hôpital Laquintinie'), org('Mairie de Douala')];
  it('matches case-insensitively anywhere in the name', () => {
    expect(filterOrganizations(list, 'BANK').map((o) => o.name)).toEqual(['Afriland First Bank']);
    expect(filterOrganizations(list, 'douala').map((o) => o.name)).toEqual(['Mairie de Douala']);
  });
  it('returns everything for a blank query', () => {
    expect(filterOrganizations(list, '  ')).toHaveLength(3);
  });
});

describe('paginate', () => {
  const items = Array.from({ length: 25 }, (_, i) => i);
  it('cuts pages of the given size', () => {
    expect(paginate(items, 1, 12)).toEqual({ items: items.slice(0, 12), page: 1, pageCount: 3 });
    expect(paginate(items, 3, 12).items).toEqual([24]);
  });
  it('clamps the page', () => {
    expect(paginate(items, 9, 12).page).toBe(3);
    expect(paginate([], 2, 12)).toEqual({ items: [], page: 1, pageCount: 1 });
  });
});
