import { parse } from 'regexparam';
import { describe, expect, it } from 'vitest';
import { hashParts, routeParser } from './hash-location';

describe('hashParts', () => {
  it('splits the hash into its path and its query', () => {
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
  });
});

describe('routeParser', () => {
  const parser = routeParser(parse);
  const match = (route: string, path: string, loose = false) => {
    const { pattern, keys = [] } = parser(route, loose);
    const found = pattern.exec(path);
    return found ? Object.fromEntries(keys.map((k, i) => [k, found[i + 1]])) : null;
  };
  it('matches a path whatever query follows it', () => {
    expect(match('/organizations', '/organizations')).toEqual({});
    expect(match('/organizations', '/organizations?q=etat&page=2')).toEqual({});
    expect(match('/organizations', '/organizationsX')).toBeNull();
    expect(match('/organizations', '/organizations/x')).toBeNull();
  });
  it('keeps the query out of parameters', () => {
    expect(match('/ticket/:code', '/ticket/QL-AB12?k=abc')).toEqual({ code: 'QL-AB12' });
    expect(match('/:orgId/services', '/o1/services?x=1')).toEqual({ orgId: 'o1' });
    expect(match('/service/:serviceId/slots', '/service/s1/slots')).toEqual({ serviceId: 's1' });
  });
  it('leaves wildcards and nested (loose) routes working', () => {
    expect(match('/organization/*', '/organization/bookings/attention')).not.toBeNull();
    expect(match('/organization', '/organization/service', true)).toEqual({});
    expect(match('/organization', '/organization?x=1', true)).toEqual({});
  });
});
