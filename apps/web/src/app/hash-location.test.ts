import { describe, expect, it } from 'vitest';
import { hashParts } from './hash-location';

describe('hashParts', () => {
  it('splits the hash into the path routes match and its query', () => {
    expect(hashParts('#/organizations?q=etat&page=2')).toEqual({
      path: '/organizations',
      search: 'q=etat&page=2',
    });
    expect(hashParts('#/ticket/QL-1?k=abc')).toEqual({ path: '/ticket/QL-1', search: 'k=abc' });
  });
  it('reads hashes without a query, without a slash, or empty', () => {
    expect(hashParts('#/organizations')).toEqual({ path: '/organizations', search: '' });
    expect(hashParts('#organizations')).toEqual({ path: '/organizations', search: '' });
    expect(hashParts('')).toEqual({ path: '/', search: '' });
    expect(hashParts('#/')).toEqual({ path: '/', search: '' });
  });
});
