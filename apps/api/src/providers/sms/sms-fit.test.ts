import { describe, expect, it } from 'vitest';
import { calledText, frToCounter, nearText } from '../../modules/queue/turn-messages.js';
import { offerText } from '../../modules/waitlist/waitlist-text.js';
import { candidates, fitSms, plainBranch, shorterForms, splitPlace } from './sms-fit.js';
import { gsmLength, smsParts } from './sms-text.js';

// The longest links the SMS carry: a booked visitor's ticket page with its 43-character key
// (91 characters) and a walk-in's visit page (88), on a 20-character origin.
const TICKET_LINK = `https://www.qless.cm/ticket/QL-ABCD-EFGH-JKLM#k=${'K'.repeat(43)}`;
const VISIT_LINK = `https://www.qless.cm/visit/6f1c2d3e-4b5a-4c6d-8e7f-901234567890#k=${'V'.repeat(22)}`;
const OFFER_LINK = 'https://www.qless.cm/w/PypnHptNTqihwl1ufwgJqw';

// The demo's two banks as customers see them (the catalogue's place names).
const LITTORAL = 'Banque du Littoral – Agence Akwa';
const HAUTS_PLATEAUX = 'Banque des Hauts Plateaux (Banengo)';
const LONG_PLACE =
  'Centre Hospitalier et Universitaire de Yaoundé – Service des Urgences Pédiatriques';
const COUNTER_22 = 'Guichet des messages 12';

const oneGsmPart = (text: string) => {
  expect(gsmLength(text), text).not.toBeNull();
  expect(gsmLength(text) ?? 999, text).toBeLessThanOrEqual(160);
  expect(smsParts(text), text).toBe(1);
};

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
        extras: true,
      },
      { place: 'Banque du Littoral - Akwa', service: 'Ouverture de compte particulier', extras: true },
      {
        place: 'Banque du Littoral - Akwa',
        service: 'Ouverture de compte particulier',
        extras: false,
      },
      { place: 'Banque du Littoral - Akwa', service: 'Ouverture de compte', extras: false },
    ]);
    // The organization goes before the service is cut below two words, and the branch stays.
    const placeOnlyBranch = steps.findIndex((s) => s.place === 'Akwa');
    const serviceOneWord = steps.findIndex((s) => s.service === 'Ouverture');
    expect(placeOnlyBranch).toBeGreaterThan(0);
    expect(serviceOneWord).toBeGreaterThan(placeOnlyBranch);
    expect(steps.at(-1)).toEqual({ place: '', service: '', extras: false });
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

describe('the turn SMS (issue 30 item 10)', () => {
  it('"you are next": both demo banks keep their branch, in one part, with the link', () => {
    for (const link of [TICKET_LINK, VISIT_LINK]) {
      const fr = nearText({ locale: 'fr', number: 'A-012', position: 2, organization: LITTORAL, link });
      oneGsmPart(fr);
      expect(fr).toContain('chez Banque du Littoral - Akwa.');
      expect(fr.endsWith(link)).toBe(true);
      const other = nearText({
        locale: 'fr',
        number: 'A-012',
        position: 2,
        organization: HAUTS_PLATEAUX,
        link,
      });
      oneGsmPart(other);
      expect(other).toMatch(/chez Banque des Hauts( Plateaux)? - Banengo\./);
      const en = nearText({ locale: 'en', number: 'A-012', position: 3, organization: LITTORAL, link });
      oneGsmPart(en);
      expect(en).toContain('3rd in line at Banque du Littoral - Akwa.');
    }
  });

  it('keeps the courtesy words while there is room', () => {
    expect(
      nearText({ locale: 'fr', number: 'A-042', position: 1, organization: 'BICEC', link: VISIT_LINK }),
    ).toBe(`A-042 : vous etes le prochain chez BICEC. Restez à proximité. ${VISIT_LINK}`);
  });

  it('"go to": a 22-character counter name is never cut, whatever the place', () => {
    for (const locale of ['fr', 'en'] as const) {
      for (const organization of [LITTORAL, HAUTS_PLATEAUX, LONG_PLACE]) {
        for (const link of [TICKET_LINK, VISIT_LINK]) {
          const text = calledText({ locale, number: 'B-107', counter: COUNTER_22, organization, link });
          oneGsmPart(text);
          expect(text).toContain(
            locale === 'fr' ? `Allez au ${COUNTER_22}` : `Go to ${COUNTER_22}`,
          );
          expect(text).toContain(locale === 'fr' ? "c'est à vous !" : 'it is your turn!');
          expect(text.endsWith(link)).toBe(true);
          // The branch of the demo banks stays too.
          if (organization !== LONG_PLACE) expect(text).toMatch(/\((Akwa|Banengo)\)\. /);
        }
      }
    }
    // With room, the branch follows the counter.
    expect(
      calledText({
        locale: 'fr',
        number: 'B-107',
        counter: COUNTER_22,
        organization: LITTORAL,
        link: VISIT_LINK,
      }),
    ).toBe(`B-107 : c'est à vous ! Allez au ${COUNTER_22} (Akwa). ${VISIT_LINK}`);
  });

  it('"go to": a counter of the longest name allowed (40) still fits, whole', () => {
    const counter = 'Guichet principal numéro 12 (rez-de-ch.)';
    expect(counter).toHaveLength(40);
    for (const locale of ['fr', 'en'] as const) {
      const text = calledText({
        locale,
        number: 'B-107',
        counter,
        organization: LONG_PLACE,
        link: TICKET_LINK,
      });
      oneGsmPart(text);
      expect(text).toContain('Guichet principal numéro 12 (rez-de-ch.)');
    }
  });

  it('French articles fit the counter’s name', () => {
    expect(frToCounter('Guichet 3')).toBe('au Guichet 3');
    expect(frToCounter('Caisse 5')).toBe('à la Caisse 5');
    expect(frToCounter('Accueil 6')).toBe("à l'Accueil 6");
    expect(frToCounter('12')).toBe('au guichet 12');
  });
});

describe('the waitlist offer keeps a recognisable service (issue 30 item 10)', () => {
  const offer = (locale: 'en' | 'fr', organization: string, service: string) =>
    offerText({
      locale,
      organization,
      service,
      date: '2026-03-05',
      startMinutes: 9 * 60 + 30,
      endsMinutes: 9 * 60 + 45,
      link: OFFER_LINK,
    });

  it('names the branch and the service, not "Ouverture"', () => {
    const fr = offer('fr', HAUTS_PLATEAUX, 'Ouverture de compte particulier');
    oneGsmPart(fr);
    expect(fr).toContain('Banengo');
    expect(fr).toContain('Ouverture de compte');
    expect(fr.endsWith(OFFER_LINK)).toBe(true);
    const en = offer('en', LITTORAL, 'Personal account opening');
    oneGsmPart(en);
    expect(en).toContain('Banque du Littoral - Akwa, Personal account opening,');
  });

  it('with very long names, keeps the branch and two words of the service', () => {
    const fr = offer(
      'fr',
      LONG_PLACE,
      'Consultation de médecine générale, renouvellement d’ordonnances et certificats médicaux',
    );
    oneGsmPart(fr);
    expect(fr).toContain('Service des Urgences');
    expect(fr).toMatch(/Consultation de médecine/);
    expect(fr).toContain("Offre jusqu'à 09h45");
  });
});
