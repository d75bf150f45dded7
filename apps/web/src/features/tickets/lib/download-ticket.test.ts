import type { Ticket } from '@qless/contract';
import { parseCompactTicketToken, ticketTokenFromScan } from '@qless/contract/core';
import QRCode from 'qrcode';
import { describe, expect, it, vi } from 'vitest';
import { en, type MessageKey } from '../../../i18n/en';
import { fr } from '../../../i18n/fr';
import { interpolate, type Locale, type Params } from '../../../i18n/i18n';
import { zoneLabel } from '../../../lib/zone-label';
import {
  type TicketI18n,
  ticketFileName,
  ticketLabels,
  ticketQrText,
  withColon,
} from './download-ticket';
import { renderTicketPdf } from './ticket-pdf';
import { TICKET_QR_OPTIONS, ticketQrSegments } from './ticket-qr';

const TICKET: Ticket = {
  code: 'QL-7K4M-2QAB-XC9D',
  // The compact token (code + Ed25519 signature) the server signs.
  token: `QL-7K4M-2QAB-XC9D.${'Zm9v'.repeat(21)}AA`,
  organization: 'Bamenda Regional Hospital',
  location: 'Hospital Roundabout, Bamenda',
  service: 'Antenatal clinic',
  service_fr: 'Consultation prénatale',
  date: '2026-03-16',
  time: '09:30',
  time_zone: 'Africa/Douala',
  customer_name: 'Ada Nkem',
  email: 'ada@example.cm',
  phone: '+237 677 123 456',
};

function i18nFor(locale: Locale): TicketI18n {
  const catalog = locale === 'fr' ? fr : en;
  return {
    locale,
    intlLocale: locale === 'fr' ? 'fr-CM' : 'en-CM',
    t: (key: MessageKey, params?: Params) =>
      interpolate(catalog[key], { product: 'Qless', ...params }),
    zone: (timeZone: string, at = new Date()) => zoneLabel(locale, timeZone, at),
  };
}

/** The text jsPDF drew (its content streams are not compressed), decoded from WinAnsi. */
async function pdfText(locale: Locale, ticket: Ticket = TICKET): Promise<string> {
  const doc = await renderTicketPdf(
    ticket,
    ticketLabels(ticket, i18nFor(locale)),
    ticketQrText(ticket),
  );
  // PDF string literals escape parentheses and backslashes.
  return doc.output().replace(/\\([()\\])/g, '$1');
}

describe('ticketFileName', () => {
  it('keeps the spec’s English name, named after the product', () => {
    expect(ticketFileName('Qless')).toBe('qless_appointment_ticket.pdf');
    expect(ticketFileName('Q Less!', 'en')).toBe('q_less_appointment_ticket.pdf');
  });
  it('is French in French', () => {
    expect(ticketFileName('Qless', 'fr')).toBe('Qless-ticket-rendez-vous.pdf');
    expect(ticketFileName('Q Less!', 'fr')).toBe('Q-Less-ticket-rendez-vous.pdf');
  });
});

describe('ticketLabels', () => {
  it('writes French labels with French typography, dates and zone', () => {
    const labels = ticketLabels(TICKET, i18nFor('fr'));
    expect(labels.title).toBe('Ticket de rendez-vous Qless');
    expect(labels.organization).toBe('Organisation\u00a0:');
    expect(labels.username).toBe('Nom\u00a0:');
    expect(labels.phone).toBe('Téléphone\u00a0:');
    expect(labels.formattedDate).toBe('lundi 16 mars 2026');
    expect(labels.formattedTime).toBe('09:30, heure de Douala (UTC+1)');
    expect(labels.arrive).toBe("Merci d'arriver 10 minutes avant l'heure prévue.");
  });
  it('keeps the spec’s English rows', () => {
    const labels = ticketLabels(TICKET, i18nFor('en'));
    expect(labels.title).toBe('Qless Appointment Ticket');
    expect(labels.organization).toBe('Organization:');
    expect(labels.username).toBe('Username:');
    expect(labels.formattedDate).toBe('Monday, 16 March 2026');
    expect(labels.formattedTime).toBe('09:30, Douala time (UTC+1)');
  });
  it('names the service in the reader’s language, the base name only when none was written', () => {
    expect(ticketLabels(TICKET, i18nFor('fr')).serviceName).toBe('Consultation prénatale');
    expect(ticketLabels(TICKET, i18nFor('en')).serviceName).toBe('Antenatal clinic');
    const untranslated = { ...TICKET, service_fr: null };
    expect(ticketLabels(untranslated, i18nFor('fr')).serviceName).toBe('Antenatal clinic');
  });
  it('puts the colon the way each language does', () => {
    expect(withColon('Date', 'en')).toBe('Date:');
    expect(withColon('Date', 'fr')).toBe('Date\u00a0:');
  });
});

describe('renderTicketPdf', () => {
  it('draws the French ticket in French', async () => {
    const text = await pdfText('fr');
    // WinAnsi: é is 0xE9 and the no-break space 0xA0, one byte each in the stream.
    for (const s of [
      'Ticket de rendez-vous Qless',
      'Organisation\u00a0:',
      'Nom\u00a0:',
      'Téléphone\u00a0:',
      "Merci d'arriver 10 minutes avant l'heure prévue.",
      'lundi 16 mars 2026',
      '09:30, heure de Douala (UTC+1)',
      'Code du ticket',
      'Ada Nkem',
      'QL-7K4M-2QAB-XC9D',
      'Consultation prénatale',
    ]) {
      expect(text, s).toContain(s);
    }
    expect(text).not.toContain('Antenatal clinic');
    expect(text).not.toContain('Organization');
    expect(text).not.toContain('Username');
    expect(text).not.toContain('Africa/Douala');
  });

  it('draws the English ticket with the spec’s rows', async () => {
    const text = await pdfText('en');
    for (const s of [
      'Qless Appointment Ticket',
      'Organization:',
      'Location:',
      'Service:',
      'Date:',
      'Username:',
      'Email:',
      'Phone:',
      'Please arrive 10 minutes before your scheduled time.',
    ]) {
      expect(text, s).toContain(s);
    }
  });

  it('draws a dash where the customer gave no e-mail (decision 121), never an empty row', async () => {
    // WinAnsi: the em dash is the one byte 0x97; jsPDF writes each value as "(...) Tj".
    const dash = '(\u0097) Tj';
    for (const locale of ['en', 'fr'] as const) {
      const text = await pdfText(locale, { ...TICKET, email: '' });
      expect(text, locale).toContain(dash);
      expect(text).not.toContain('ada@example.cm');
      expect(await pdfText(locale)).not.toContain(dash);
    }
  });

  it('encodes the compact token in its QR, at error correction Q', async () => {
    const text = ticketQrText(TICKET);
    const toDataURL = vi.spyOn(QRCode, 'toDataURL');
    await renderTicketPdf(TICKET, ticketLabels(TICKET, i18nFor('en')), text);
    // The token as one byte segment, level Q, the ticket QR's one mask (decision 115).
    expect(toDataURL).toHaveBeenCalledWith(
      ticketQrSegments(text),
      expect.objectContaining({
        errorCorrectionLevel: 'Q',
        maskPattern: TICKET_QR_OPTIONS.maskPattern,
      }),
    );
    toDataURL.mockRestore();
  });
});

describe('ticketQrText', () => {
  it('is the compact signed token alone, which the counter reads as a token', () => {
    const text = ticketQrText(TICKET);
    expect(text).toBe(TICKET.token);
    expect(parseCompactTicketToken(text)).toEqual({
      code: TICKET.code,
      signature: text.slice(TICKET.code.length + 1),
    });
    expect(ticketTokenFromScan(text)).toBe(text);
  });
  it('is at most 104 characters and draws a QR of version 8 or less at level Q, not 471 and 17', () => {
    const text = ticketQrText(TICKET);
    expect(text.length).toBeLessThanOrEqual(104);
    const qr = QRCode.create(text, { errorCorrectionLevel: 'Q' });
    expect(qr.version).toBeLessThanOrEqual(8);
    // What the PDFs printed before held: the ticket page link with a JWT.
    const before = `https://qless.cm/#/ticket/${TICKET.code}?t=${'x'.repeat(440)}`;
    expect(QRCode.create(before, { errorCorrectionLevel: 'M' }).version).toBeGreaterThan(15);
  });
});
