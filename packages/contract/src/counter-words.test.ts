import { describe, expect, it } from 'vitest';
import { frenchCounterArticle } from './counter-words.js';

describe('frenchCounterArticle', () => {
  it('takes the article of the name’s first word', () => {
    expect(frenchCounterArticle('Guichet 3')).toBe('au ');
    expect(frenchCounterArticle('Caisse 5')).toBe('à la ');
    expect(frenchCounterArticle('Accueil 6')).toBe('à l’');
    expect(frenchCounterArticle('  Bureau des messages 12')).toBe('au ');
    expect(frenchCounterArticle('Bleu')).toBe('au guichet ');
    expect(frenchCounterArticle('Entrée', "'")).toBe("à l'");
  });
});
