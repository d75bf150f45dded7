import { describe, expect, it } from 'vitest';
import { truncateWords } from './truncate';

describe('truncateWords', () => {
  it('keeps 8 words and adds " ..."', () => {
    expect(truncateWords('one two three four five six seven eight nine ten')).toBe(
      'one two three four five six seven eight ...',
    );
  });
  it('leaves short text alone', () => {
    expect(truncateWords('Open a current account')).toBe('Open a current account');
    expect(truncateWords('one two three four five six seven eight')).toBe(
      'one two three four five six seven eight',
    );
  });
  it('collapses odd whitespace', () => {
    expect(truncateWords('  a\n b\t c  ', 2)).toBe('a b ...');
    expect(truncateWords('')).toBe('');
  });
  it('keeps French no-break spaces, which join rather than split words', () => {
    expect(truncateWords('Visite avec une sage-femme\u00a0: poids et tension.', 5)).toBe(
      'Visite avec une sage-femme\u00a0: poids ...',
    );
    expect(truncateWords('Déposez 10\u00a0000\u00a0FCFA au guichet', 2)).toBe(
      'Déposez 10\u00a0000\u00a0FCFA ...',
    );
  });
});
