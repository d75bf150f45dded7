import { describe, expect, it } from 'vitest';
import { placeLabel } from './place-label';

describe('placeLabel', () => {
  it('names the branch after the organization, as the ticket and the SMS do', () => {
    expect(placeLabel({ name: 'Banque des Hauts Plateaux', branch_name: 'Akwa' })).toBe(
      'Banque des Hauts Plateaux (Akwa)',
    );
  });
  it('is the name alone without a branch', () => {
    expect(placeLabel({ name: 'Mairie de Douala 1er', branch_name: null })).toBe(
      'Mairie de Douala 1er',
    );
    expect(placeLabel({ name: 'Mairie', branch_name: '  ' })).toBe('Mairie');
  });
});
