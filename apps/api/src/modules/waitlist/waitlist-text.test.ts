import { describe, expect, it } from 'vitest';
import { gsmLength } from '../../providers/sms/sms-text.js';
import { compactId, expandId, offerLink, offerText } from './waitlist-text.js';

const ID = '3f2a7c1e-9b4d-4e8a-a1c2-5d6e7f8091ab';

describe('the offer SMS (decision 023)', () => {
  it('the short link carries the entry in 22 characters and back', () => {
    expect(compactId(ID)).toHaveLength(22);
    expect(expandId(compactId(ID))).toBe(ID);
    expect(expandId('not-a-code')).toBeNull();
    expect(offerLink('https://qless.cm/', ID)).toBe(`https://qless.cm/w/${compactId(ID)}`);
  });

  it('fits one GSM part in both languages, however long the names; the link is never cut', () => {
    const link = offerLink('https://booking.example-long-origin.cm', ID);
    for (const locale of ['en', 'fr'] as const) {
      for (const [organization, service] of [
        ['Guichet Unique', 'Counter 15'],
        [
          "Centre d'État Civil de Douala 1er – Bonanjo, Rue Joss, en face de la poste centrale",
          'Légalisation et certification de copies conformes des actes de naissance',
        ],
      ] as const) {
        const text = offerText({
          locale,
          organization,
          service,
          date: '2026-03-05',
          startMinutes: 12 * 60,
          endsMinutes: 9 * 60 + 45,
          link,
        });
        expect(gsmLength(text), text).toBeLessThanOrEqual(160);
        expect(text.endsWith(link)).toBe(true);
        expect(text).toContain(locale === 'fr' ? 'le 05/03 à 12h00' : '05/03 at 12:00');
        expect(text).toContain(locale === 'fr' ? "Offre jusqu'à 09h45" : 'Offer ends 09:45');
      }
    }
  });
});
