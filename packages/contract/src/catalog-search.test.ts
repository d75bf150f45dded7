import { describe, expect, it } from 'vitest';
import {
  CATEGORY_SYNONYMS,
  categoryTermsFor,
  foldForSearch,
  MAX_SEARCH_WORDS,
  SEARCH_FOLD_FROM,
  SEARCH_FOLD_TO,
  searchWords,
} from './catalog-search';

describe('foldForSearch', () => {
  it('drops accents and case the way people type without them', () => {
    expect(foldForSearch("Centre d'État Civil de Yaoundé")).toBe("centre d'etat civil de yaounde");
    expect(foldForSearch('ÉNERGIE Télécom Impôts Œuvre cœur')).toBe(
      'energie telecom impots oeuvre coeur',
    );
    expect(foldForSearch('d’État – Akwa')).toBe("d'etat - akwa");
  });
  it('folds each letter of the table to one ASCII character, as translate() does', () => {
    expect([...SEARCH_FOLD_FROM]).toHaveLength([...SEARCH_FOLD_TO].length);
    for (const [i, ch] of [...SEARCH_FOLD_FROM].entries()) {
      expect(foldForSearch(ch)).toBe([...SEARCH_FOLD_TO][i]);
      // Every accented letter folds to what its decomposition without marks lower-cases to.
      const plain = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      if (/^[a-z]$/.test(plain)) expect(foldForSearch(ch), ch).toBe(plain);
    }
  });
  it('lower-cases ASCII only (what lower() does in every database locale)', () => {
    expect(foldForSearch('ΣΑ')).toBe('ΣΑ');
  });
});

describe('searchWords', () => {
  it('splits on spaces and commas, folds, and keeps at most 8 words', () => {
    expect(searchWords('  Banque,  DOUALA ')).toEqual(['banque', 'douala']);
    expect(searchWords('')).toEqual([]);
    expect(searchWords('a b c d e f g h i j')).toHaveLength(MAX_SEARCH_WORDS);
  });
});

describe('categoryTermsFor', () => {
  it('gives both languages of a kind of organization', () => {
    expect(categoryTermsFor('banque')).toEqual(['bank', 'banque']);
    expect(categoryTermsFor('BANK')).toEqual(['bank', 'banque']);
    expect(categoryTermsFor('hôpital')).toEqual(['hospital', 'hopital']);
    expect(categoryTermsFor('etat')).toContain('civil-registry');
  });
  it('ignores words too short to mean a kind, and unknown words', () => {
    expect(categoryTermsFor('ba')).toEqual([]);
    expect(categoryTermsFor('zzz')).toEqual([]);
  });
  it('never relates electricity and water (both utilities)', () => {
    expect(categoryTermsFor('water')).toEqual([]);
    expect(CATEGORY_SYNONYMS.flat().map(foldForSearch)).not.toContain('energie');
  });
});
