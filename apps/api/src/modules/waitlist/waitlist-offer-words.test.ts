import { describe, expect, it } from 'vitest';
import {
  HAUTS_PLATEAUX,
  LITTORAL,
  LONG_PLACE,
  OFFER_LINK,
} from '../../providers/sms/sms-test-names.js';
import { gsmLength, smsParts } from '../../providers/sms/sms-text.js';
import { offerText } from './waitlist-text.js';

const oneGsmPart = (text: string) => {
  expect(gsmLength(text), text).not.toBeNull();
  expect(gsmLength(text) ?? 999, text).toBeLessThanOrEqual(160);
  expect(smsParts(text), text).toBe(1);
};

describe('the waitlist offer keeps a recognisable service', () => {
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
