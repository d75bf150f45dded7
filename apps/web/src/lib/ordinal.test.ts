import { describe, expect, it } from 'vitest';
import { ordinal } from './ordinal';

describe('ordinal', () => {
  it('writes French ranks as the Imprimerie nationale does: 1er / 1re, 2e, never 1e', () => {
    expect(ordinal(1, 'fr')).toBe('1er');
    expect(ordinal(1, 'fr', 'f')).toBe('1re');
    expect([2, 3, 11, 21].map((n) => ordinal(n, 'fr'))).toEqual(['2e', '3e', '11e', '21e']);
  });

  it('writes English ranks with their suffixes, 11th–13th included', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map((n) => ordinal(n, 'en'))).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
    ]);
  });
});
