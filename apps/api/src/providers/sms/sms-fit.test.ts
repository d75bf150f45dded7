import { describe, expect, it } from 'vitest';
import { candidates, fitSms, plainBranch, shorterForms, splitPlace } from './sms-fit.js';

// The demo's two banks as customers see them (the catalogue's place names).
const LITTORAL = 'Banque du Littoral – Agence Akwa';
const HAUTS_PLATEAUX = 'Banque des Hauts Plateaux (Banengo)';

describe('the names of a place', () => {
  it('splits the organization from its branch in both forms the product writes', () => {
    expect(splitPlace(HAUTS_PLATEAUX)).toEqual({
      organization: 'Banque des Hauts Plateaux',
      branch: 'Banengo',
    });
    expect(splitPlace(LITTORAL)).toEqual({
      organization: 'Banque du Littoral',
      branch: 'Agence Akwa',
    });
    expect(splitPlace('Afriland First Bank (SA)').branch).toBe('');
    // A hyphen inside a word is not a branch.
    expect(splitPlace('Centre Hospitalier de Mvog-Mbi')).toEqual({
      organization: 'Centre Hospitalier de Mvog-Mbi',
      branch: '',
    });
  });

  it('drops only the words every branch has', () => {
    expect(plainBranch('Agence Akwa')).toBe('Akwa');
    expect(plainBranch('Agence Commerciale de Deido')).toBe('Deido');
    expect(plainBranch('Commercial Avenue Branch')).toBe('Commercial Avenue');
    expect(plainBranch('Nkwen Customer Office')).toBe('Nkwen');
    expect(plainBranch('Espace Clients Avenue Kennedy')).toBe('Avenue Kennedy');
    expect(plainBranch('Bastos')).toBe('Bastos');
    expect(plainBranch('Agence')).toBe('Agence');
  });

  it('shortens at words, never ending on a small word, keeping the words asked', () => {
    expect(shorterForms('Ouverture de compte particulier', 2)).toEqual(['Ouverture de compte']);
    expect(shorterForms('Ouverture de compte particulier', 1)).toEqual([
      'Ouverture de compte',
      'Ouverture',
    ]);
    expect(shorterForms('Certified copy of birth certificate', 2)).toEqual([
      'Certified copy of birth',
      'Certified copy',
    ]);
    expect(shorterForms('Banque du Littoral', 2)).toEqual([]);
  });

  it('tries generic words, then optional words, then the service, then the organization', () => {
    const steps = candidates({ place: LITTORAL, service: 'Ouverture de compte particulier' });
    expect(steps.slice(0, 4)).toEqual([
      {
        place: 'Banque du Littoral - Agence Akwa',
        service: 'Ouverture de compte particulier',
        optional: 1,
      },
      {
        place: 'Banque du Littoral - Akwa',
        service: 'Ouverture de compte particulier',
        optional: 1,
      },
      {
        place: 'Banque du Littoral - Akwa',
        service: 'Ouverture de compte particulier',
        optional: 0,
      },
      { place: 'Banque du Littoral - Akwa', service: 'Ouverture de compte', optional: 0 },
    ]);
    // The organization goes before the service is cut below two words, and the branch stays.
    const placeOnlyBranch = steps.findIndex((s) => s.place === 'Akwa');
    const serviceOneWord = steps.findIndex((s) => s.service === 'Ouverture');
    expect(placeOnlyBranch).toBeGreaterThan(0);
    expect(serviceOneWord).toBeGreaterThan(placeOnlyBranch);
    expect(steps.at(-1)).toEqual({ place: '', service: '', optional: 0 });
  });

  it('drops groups of optional words one at a time; kept ones go after every name', () => {
    const two = candidates({ place: LITTORAL }, { optional: 2 });
    expect(two.slice(1, 4).map((s) => [s.place, s.optional])).toEqual([
      ['Banque du Littoral - Akwa', 2],
      ['Banque du Littoral - Akwa', 1],
      ['Banque du Littoral - Akwa', 0],
    ]);
    const kept = candidates({ place: HAUTS_PLATEAUX }, { keepOptional: true });
    const placeGone = kept.findIndex((s) => s.place === '');
    expect(kept.slice(0, placeGone).every((s) => s.optional === 1)).toBe(true);
    expect(kept.at(-1)).toEqual({ place: '', service: '', optional: 0 });
  });

  it('writes the text in the GSM alphabet and measures it so', () => {
    const text = fitSms({ place: 'Hôpital Général' }, ({ place }) => `ça va à ${place} ?`);
    expect(text).toBe('ca va à Hopital Général ?');
    // Two parts when the builder allows them: 306 characters.
    const long = 'x'.repeat(200);
    expect(fitSms({ place: 'A B' }, ({ place }) => `${long} ${place}`, { parts: 2 })).toBe(
      `${long} A B`,
    );
  });
});
