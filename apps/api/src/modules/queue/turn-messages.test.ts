import { describe, expect, it } from 'vitest';
import { gsmLength } from '../../providers/sms/sms-text.js';
import { calledText, nearText, visitPageUrl } from './turn-messages.js';

const link = visitPageUrl(
  'https://www.qless.cm',
  '6f1c2d3e-4b5a-4c6d-8e7f-901234567890',
  'AbCdEfGhIjKlMnOpQrStUv',
);
const longOrg = 'Hôpital Général de Référence de Douala — Service des Consultations Externes';

describe('turn SMS', () => {
  it('fit one GSM-7 part in both languages, whatever the names, and keep the link whole', () => {
    for (const locale of ['en', 'fr'] as const) {
      for (const organization of ['BICEC', longOrg]) {
        for (const position of [1, 2, 3, 11, 20]) {
          const text = nearText({ locale, number: 'A-042', position, organization, link });
          expect(gsmLength(text), text).not.toBeNull();
          expect(gsmLength(text) ?? 999, text).toBeLessThanOrEqual(160);
          expect(text.endsWith(link)).toBe(true);
          expect(text.startsWith('A-042')).toBe(true);
        }
        const called = calledText({
          locale,
          number: 'B-107',
          counter: 'Guichet principal numéro 12 (rez-de-chaussée)',
          organization,
          link,
        });
        expect(gsmLength(called) ?? 999, called).toBeLessThanOrEqual(160);
        expect(called.endsWith(link)).toBe(true);
      }
    }
  });

  it('say the place and the counter in the visitor’s language', () => {
    expect(
      nearText({ locale: 'en', number: 'A-042', position: 3, organization: 'BICEC', link }),
    ).toBe(`A-042: you are 3rd in line at BICEC. Please stay close. ${link}`);
    expect(
      nearText({ locale: 'fr', number: 'A-042', position: 1, organization: 'BICEC', link }),
    ).toBe(`A-042 : vous etes le prochain chez BICEC. Restez à proximité. ${link}`);
    expect(
      calledText({
        locale: 'fr',
        number: 'A-042',
        counter: 'Guichet 3',
        organization: 'BICEC',
        link,
      }),
    ).toBe(`A-042 : c'est à vous ! Allez au Guichet 3 (BICEC). ${link}`);
    expect(
      nearText({ locale: 'en', number: 'A-001', position: 12, organization: 'X', link }),
    ).toContain('you are 12th in line');
  });
});
