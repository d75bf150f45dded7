import { describe, expect, it } from 'vitest';
import { mayWriteCatalog } from './read-your-writes';

describe('which routes wait for the read cache after a write', () => {
  it('a write method, or a GET that says it writes, unless it never touches the catalogue', () => {
    expect(mayWriteCatalog({ method: 'POST' })).toBe(true);
    expect(mayWriteCatalog({ method: ['PUT', 'PATCH'] })).toBe(true);
    expect(mayWriteCatalog({ method: 'DELETE', config: {} })).toBe(true);
    expect(mayWriteCatalog({ method: 'GET', config: { writes: true } })).toBe(true);
    expect(mayWriteCatalog({ method: 'GET' })).toBe(false);
    expect(mayWriteCatalog({ method: ['GET', 'HEAD'] })).toBe(false);
    expect(mayWriteCatalog({ method: 'POST', config: { touchesCatalog: false } })).toBe(false);
  });
});
