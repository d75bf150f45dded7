import { describe, expect, it } from 'vitest';
import { gsmLength, smsParts } from '../../providers/sms/sms-text.js';
import { BOOKING_MESSAGE_EVENTS } from './message-rows.js';
import { emailMessage, type MessageFacts, smsText } from './message-text.js';

// The booking's short link in its SMS (decision 141).
const LINK = 'https://qless.cm/t/7K3M9QXD2PAB';
const facts = (over: Partial<MessageFacts> = {}): MessageFacts => ({
  event: 'confirmation',
  locale: 'en',
  customerName: 'Ngono <Marie>',
  organization: 'Hôpital Laquintinie',
  address: 'Rue Joss, Bonanjo, Douala',
  service: 'Consultation générale',
  date: '2026-08-06',
  startMinutes: 9 * 60 + 30,
  timeZone: 'Africa/Douala',
  ticketCode: 'QL-ABCD-EFGH-JKLM',
  link: LINK,
  cancelledByOrganization: false,
  previous: null,
  relativeDay: null,
  at: new Date('2026-08-05T10:00:00Z'),
  ...over,
});

describe('customer SMS', () => {
  it('fit one GSM part with the short ticket link, in both languages, for every event', () => {
    for (const locale of ['en', 'fr'] as const) {
      for (const event of BOOKING_MESSAGE_EVENTS) {
        const text = smsText(facts({ locale, event }));
        expect(gsmLength(text), `${locale} ${event}`).not.toBeNull();
        expect(smsParts(text), `${locale} ${event}`).toBe(1);
        expect(text.endsWith(LINK)).toBe(true);
      }
    }
  });

  it('shorten long names rather than run to a second part; the link stays whole', () => {
    const long = facts({
      locale: 'fr',
      organization:
        'Centre Hospitalier et Universitaire de Yaoundé, Service des Urgences Pédiatriques',
      service:
        'Consultation de médecine générale, renouvellement d’ordonnances et certificats médicaux',
      relativeDay: 'tomorrow',
      event: 'reminder_day_before',
    });
    const text = smsText(long);
    expect(smsParts(text)).toBe(1);
    expect(text).toContain('Centre Hospitalier');
    // Shortened at a word (decision 122), never mid-word with "...".
    expect(text).toContain('Consultation de médecine');
    expect(text).not.toContain('...');
    expect(text.endsWith(LINK)).toBe(true);
  });

  it('say what happened, when, where, and the ticket code', () => {
    expect(smsText(facts())).toBe(
      `Qless: booking confirmed. Hopital Laquintinie, Consultation générale, Thu, 6 Aug at 09:30. Ticket QL-ABCD-EFGH-JKLM: ${LINK}`,
    );
    expect(smsText(facts({ locale: 'fr', event: 'reminder_2h', relativeDay: 'today' }))).toBe(
      `Qless, rappel : Hopital Laquintinie, Consultation générale, aujourd'hui, jeu. 6 aout à 09:30. Ticket QL-ABCD-EFGH-JKLM : ${LINK}`,
    );
    expect(
      smsText(facts({ locale: 'fr', event: 'cancellation', cancelledByOrganization: true })),
    ).toContain("Qless : réservation annulée par l'organisation.");
    expect(smsText(facts({ event: 'reschedule' }))).toContain(
      'booking moved. New time: Thu, 6 Aug at 09:30.',
    );
  });
});

describe('customer e-mail', () => {
  it('is written in French with French typography, FCFA and the zone named', () => {
    const mail = emailMessage(facts({ locale: 'fr', relativeDay: 'tomorrow' }));
    expect(mail.subject).toBe(
      'Réservation confirmée\u00a0: Hôpital Laquintinie, demain, jeu. 6 août à 09:30',
    );
    expect(mail.text).toContain('Bonjour Ngono <Marie>,');
    expect(mail.text).toContain('Organisation\u00a0: Hôpital Laquintinie\n');
    expect(mail.text).toContain('Date\u00a0: jeudi 6 août 2026\n');
    expect(mail.text).toContain('Heure\u00a0: 09:30, heure de Douala (UTC+1)\n');
    expect(mail.text).toContain(
      'Les frais de 2\u00a0FCFA ne sont pas remboursés en cas d’annulation\u00a0;',
    );
    expect(mail.text).toContain(`agenda, déplacer ou annuler le rendez-vous)\u00a0:\n${LINK}\n`);
    // No plain space before a colon or semicolon, no English leftovers, no zone id.
    expect(mail.text).not.toMatch(/ [:;?!]/);
    expect(`${mail.subject}${mail.text}${mail.html}`).not.toMatch(
      /XAF|Africa\/Douala|Organization|Ticket:/,
    );
    expect(mail.html).toContain('<html lang="fr">');
  });

  it('is written in English with the fee as the spec writes it, and escapes names in HTML', () => {
    const mail = emailMessage(facts({ event: 'confirmation' }));
    expect(mail.subject).toBe('Booking confirmed: Hôpital Laquintinie, Thu, 6 Aug at 09:30');
    expect(mail.text).toContain('Time: 09:30, Douala time (UTC+1)');
    expect(mail.text).toContain(
      'The 2 XAF fee is not refunded if you cancel; it carries over if you reschedule.',
    );
    expect(mail.html).toContain('Hello Ngono &lt;Marie&gt;,');
    expect(mail.html).not.toContain('<Marie>');
    expect(mail.html).toContain(`<a href="${LINK}">`);
  });

  it('tells a moved booking its old time, and a cancelled one who cancelled it', () => {
    const moved = emailMessage(
      facts({ event: 'reschedule', previous: { date: '2026-08-05', startMinutes: 600 } }),
    );
    expect(moved.subject).toBe('Booking moved: Hôpital Laquintinie, now Thu, 6 Aug at 09:30');
    expect(moved.text).toContain(
      'Your booking was moved. It was on Wednesday, 5 August 2026, 10:00.',
    );
    const cancelled = emailMessage(
      facts({ locale: 'fr', event: 'cancellation', cancelledByOrganization: true }),
    );
    expect(cancelled.text).toContain('Hôpital Laquintinie a annulé votre réservation.');
    expect(cancelled.text).toContain('Votre réservation\u00a0:');
  });
});
