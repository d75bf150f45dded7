import { describe, expect, it } from 'vitest';
import { pathFromHashRoute } from './location';

describe('pathFromHashRoute', () => {
  it('turns a hash route into its path, query included', () => {
    expect(pathFromHashRoute('#/organizations?q=etat&page=2')).toBe('/organizations?q=etat&page=2');
    expect(pathFromHashRoute('#/ticket/QL-1?k=abc')).toBe('/ticket/QL-1?k=abc');
    expect(pathFromHashRoute('#/')).toBe('/');
  });
  it("keeps the spec's /organization//x form for the area to collapse", () => {
    expect(pathFromHashRoute('#/organization//service')).toBe('/organization//service');
  });
  it('never yields another origin (leading slashes collapse)', () => {
    expect(pathFromHashRoute('#//evil.example/x')).toBe('/evil.example/x');
    expect(pathFromHashRoute('#///x')).toBe('/x');
    // A URL parser reads a backslash as a slash: `/\\evil` would be `//evil`.
    expect(pathFromHashRoute('#/\\evil.example/x')).toBe('/evil.example/x');
    expect(pathFromHashRoute('#//\\/evil.example')).toBe('/evil.example');
    for (const hash of ['#/\\evil.example', '#//\\evil.example', '#/\\/evil.example']) {
      const path = pathFromHashRoute(hash) ?? '';
      expect(new URL(path, 'https://qless.cm/').origin).toBe('https://qless.cm');
    }
  });
  it('leaves an in-page anchor and an empty hash alone', () => {
    expect(pathFromHashRoute('#main')).toBeNull();
    expect(pathFromHashRoute('')).toBeNull();
  });
});
