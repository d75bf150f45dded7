import { describe, expect, it } from 'vitest';
import {
  COUNTER_22,
  HAUTS_PLATEAUX,
  LITTORAL,
  LONG_PLACE,
  OFFER_LINK,
  TICKET_LINK,
  VISIT_LINK,
} from '../../providers/sms/sms-test-names.js';
import { gsmLength, smsParts } from '../../providers/sms/sms-text.js';
import { feedbackPageUrl, feedbackText } from '../feedback/feedback-messages.js';
import { calledText, nearText } from '../queue/turn-messages.js';
import { offerText } from '../waitlist/waitlist-text.js';
import { BOOKING_MESSAGE_EVENTS } from './message-rows.js';
import { smsText } from './message-text.js';

/**
 * Every SMS builder against every kind of name (decision 122): each text in the GSM alphabet,
 * in its parts (one; two for booking messages), the link whole at the end, the counter whole.
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
const FEEDBACK_LINK = feedbackPageUrl('https://www.qless.cm', 'A'.repeat(48));
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

  it('the booking messages: two parts, the ticket code whole', () => {
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
            inParts(text, 2, TICKET_LINK);
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
