import { describe, expect, it } from 'vitest';
import {
  COUNTER_22,
  HAUTS_PLATEAUX,
  LITTORAL,
  LONG_PLACE,
  TICKET_LINK,
  VISIT_LINK,
} from '../../providers/sms/sms-test-names.js';
import { gsmLength, smsParts } from '../../providers/sms/sms-text.js';
import { calledText, frToCounter, nearText } from './turn-messages.js';

const oneGsmPart = (text: string) => {
  expect(gsmLength(text), text).not.toBeNull();
  expect(gsmLength(text) ?? 999, text).toBeLessThanOrEqual(160);
  expect(smsParts(text), text).toBe(1);
};

describe('the turn SMS', () => {
  it('"you are next": both demo banks keep their branch, in one part, with the link', () => {
    for (const link of [TICKET_LINK, VISIT_LINK]) {
      const fr = nearText({
        locale: 'fr',
        number: 'A-012',
        position: 2,
        organization: LITTORAL,
        link,
      });
      oneGsmPart(fr);
      // With the visit page's long link "Agence" goes; beside a short ticket link it stays.
      expect(fr).toMatch(/chez Banque du Littoral - (Agence )?Akwa\./);
      expect(fr.endsWith(link)).toBe(true);
      const other = nearText({
        locale: 'fr',
        number: 'A-012',
        position: 2,
        organization: HAUTS_PLATEAUX,
        link,
      });
      oneGsmPart(other);
      // The whole name and the branch: beside the long link "vous êtes" and "stay close" went
      // first; beside the short one nothing had to go.
      expect(other).toMatch(
        /^A-012 : (vous etes )?2e dans la file chez Banque des Hauts Plateaux - Banengo\./,
      );
      const en = nearText({
        locale: 'en',
        number: 'A-012',
        position: 3,
        organization: LITTORAL,
        link,
      });
      oneGsmPart(en);
      expect(en).toMatch(/3rd in line at Banque du Littoral - (Agence )?Akwa\./);
    }
  });

  it('keeps the courtesy words while there is room', () => {
    expect(
      nearText({
        locale: 'fr',
        number: 'A-042',
        position: 1,
        organization: 'BICEC',
        link: VISIT_LINK,
      }),
    ).toBe(`A-042 : vous etes le prochain chez BICEC. Restez à proximité. ${VISIT_LINK}`);
  });

  it('"go to": a 22-character counter name is never cut, whatever the place', () => {
    for (const locale of ['fr', 'en'] as const) {
      for (const organization of [LITTORAL, HAUTS_PLATEAUX, LONG_PLACE]) {
        for (const link of [TICKET_LINK, VISIT_LINK]) {
          const text = calledText({
            locale,
            number: 'B-107',
            counter: COUNTER_22,
            organization,
            link,
          });
          oneGsmPart(text);
          expect(text).toContain(
            locale === 'fr' ? `Allez au ${COUNTER_22}` : `Go to ${COUNTER_22}`,
          );
          expect(text).toContain(locale === 'fr' ? "c'est à vous !" : 'it is your turn!');
          expect(text.endsWith(link)).toBe(true);
          // The branch of the demo banks stays too.
          if (organization !== LONG_PLACE) expect(text).toMatch(/(Akwa|Banengo)\)\. /);
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
