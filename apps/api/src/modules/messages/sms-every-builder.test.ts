import { describe, expect, it } from 'vitest';
import {
  COUNTER_22,
  HAUTS_PLATEAUX,
  LINKS_30,
  LITTORAL,
  LONG_PLACE,
  ORIGIN_30,
} from '../../providers/sms/sms-test-names.js';
import { gsmLength, smsParts } from '../../providers/sms/sms-text.js';
import { feedbackPageUrl, feedbackText } from '../feedback/feedback-messages.js';
import { FIXED_REPLIES, fixedText, joinedText, movedBackText } from '../queue/sms-words.js';
import { calledText, nearText } from '../queue/turn-messages.js';
import { offerText } from '../waitlist/waitlist-text.js';
import { BOOKING_MESSAGE_EVENTS } from './message-rows.js';
import { smsText } from './message-text.js';

/**
 * Every SMS builder against every kind of name (decision 122): each text in the GSM alphabet,
 * in one part (160 characters) on a site address of 30 characters, the link whole at the end,
 * the counter whole (decision 141).
 */
const PLACES = [
  'BICEC',
  LITTORAL,
  HAUTS_PLATEAUX,
  LONG_PLACE,
  "Centre d'État Civil de Douala 1er – Bonanjo",
  'Hôpital Général de Référence de Douala — Service des Consultations Externes (Bonanjo)',
  // No space to shorten at, and far too long.
  'X'.repeat(120),
  `${'Très longue organisation '.repeat(8)}(Agence Commerciale de Deido)`,
];
const SERVICES = [
  'Retrait',
  'Ouverture de compte particulier',
  'Taxpayer registration (NIU)',
  'Consultation de médecine générale, renouvellement d’ordonnances et certificats médicaux',
  'Y'.repeat(90),
];
const COUNTERS = ['Guichet 3', 'Caisse 5', COUNTER_22, 'Guichet principal numéro 12 (rez-de-ch.)'];
const { ticket: TICKET_LINK, visit: VISIT_LINK, offer: OFFER_LINK } = LINKS_30;
const FEEDBACK_LINK = feedbackPageUrl(ORIGIN_30, 'A'.repeat(48));
const LOCALES = ['fr', 'en'] as const;

const inParts = (text: string, parts: number, link: string) => {
  expect(gsmLength(text), text).not.toBeNull();
  expect(smsParts(text), text).toBeLessThanOrEqual(parts);
  expect(text.endsWith(` ${link}`), text).toBe(true);
};

describe('every SMS builder fits its parts, whatever the names', () => {
  it('the turn SMS: one part, the counter never cut', () => {
    for (const locale of LOCALES) {
      for (const organization of PLACES) {
        for (const link of [TICKET_LINK, VISIT_LINK]) {
          for (const position of [1, 2, 3, 11, 23]) {
            inParts(nearText({ locale, number: 'A-042', position, organization, link }), 1, link);
          }
          for (const counter of COUNTERS) {
            const text = calledText({ locale, number: 'B-107', counter, organization, link });
            inParts(text, 1, link);
            expect(text, text).toContain(counter);
          }
        }
      }
    }
  });

  it('the waitlist offer and the feedback request: one part', () => {
    for (const locale of LOCALES) {
      for (const organization of PLACES) {
        inParts(feedbackText({ locale, organization, link: FEEDBACK_LINK }), 1, FEEDBACK_LINK);
        for (const service of SERVICES) {
          const text = offerText({
            locale,
            organization,
            service,
            date: '2026-03-05',
            startMinutes: 12 * 60,
            endsMinutes: 9 * 60 + 45,
            link: OFFER_LINK,
          });
          inParts(text, 1, OFFER_LINK);
          // The times are never shortened.
          expect(text).toContain(locale === 'fr' ? "Offre jusqu'à 09h45" : 'Offer ends 09:45');
        }
      }
    }
  });

  it('the answers to texts: one part, the number whole', () => {
    for (const locale of LOCALES) {
      for (const kind of FIXED_REPLIES) {
        // A service list is fitted by its writer (sms-join.ts), the rest are fixed words.
        if (kind === 'whichService') continue;
        const text = fixedText(kind, locale, { number: 'B-107', keyword: 'ABCDEFGHIJKL' });
        expect(gsmLength(text), text).not.toBeNull();
        expect(smsParts(text), text).toBe(1);
      }
      for (const place of PLACES) {
        for (const position of [1, 2, 23]) {
          const estimate = { min_minutes: 105, max_minutes: 240 };
          const text = joinedText({ locale, place, number: 'B-107', position, estimate });
          expect(smsParts(text), text).toBe(1);
          expect(text).toContain('B-107');
        }
      }
      expect(smsParts(movedBackText(locale, 'B-107', 23))).toBe(1);
    }
  });

  it('the booking messages: one part, the ticket code whole', () => {
    for (const locale of LOCALES) {
      for (const event of BOOKING_MESSAGE_EVENTS) {
        for (const organization of PLACES) {
          for (const service of SERVICES) {
            const text = smsText({
              event,
              locale,
              customerName: 'Ngono Marie',
              organization,
              address: '',
              service,
              date: '2026-08-06',
              startMinutes: 9 * 60 + 30,
              timeZone: 'Africa/Douala',
              ticketCode: 'QL-ABCD-EFGH-JKLM',
              link: TICKET_LINK,
              cancelledByOrganization: true,
              previous: null,
              relativeDay: 'tomorrow',
              at: new Date('2026-08-05T10:00:00Z'),
            });
            inParts(text, 1, TICKET_LINK);
            // The code read out at the counter, outside the link too.
            if (event !== 'cancellation') {
              expect(text.replace(TICKET_LINK, '')).toContain('Ticket QL-ABCD-EFGH-JKLM');
            }
          }
        }
      }
    }
  });
});
