import { describe, expect, it } from 'vitest';
import { matchesQuery } from './search';

describe('matchesQuery', () => {
  it('matches case-insensitively anywhere in the text', () => {
    expect(matchesQuery('Account Opening', 'OPEN')).toBe(true);
    expect(matchesQuery('Mairie de Douala', 'douala')).toBe(true);
    expect(matchesQuery('Account Opening', 'loan')).toBe(false);
  });
  it('treats a blank query as matching everything', () => {
    expect(matchesQuery('Anything', '')).toBe(true);
    expect(matchesQuery('Anything', '   ')).toBe(true);
  });
  it('ignores spaces around the query, not inside it', () => {
    expect(matchesQuery('First Bank', '  first b ')).toBe(true);
    expect(matchesQuery('FirstBank', 'first bank')).toBe(false);
  });
  it('ignores accents, both ways', () => {
    expect(matchesQuery('Copie certifiée d’acte de naissance', "certifiee d'acte")).toBe(true);
    expect(matchesQuery('Etat civil', 'ÉTAT')).toBe(true);
  });
});
