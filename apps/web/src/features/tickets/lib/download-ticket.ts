import type { Ticket } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import type { MessageKey } from '../../../i18n/en';
import type { Locale, Params } from '../../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import type { TicketLabels } from './ticket-pdf';

/** What the ticket needs of the UI language (useI18n() gives all of it). */
export interface TicketI18n {
  locale: Locale;
  intlLocale: string;
  t: (key: MessageKey, params?: Params) => string;
  zone: (timeZone: string, at?: Date) => string;
}

/**
 * The PDF's file name in the UI language: the spec's "qless_appointment_ticket.pdf" in
 * English, "Qless-ticket-rendez-vous.pdf" in French.
 */
export function ticketFileName(productName: string, locale: Locale = 'en'): string {
  if (locale === 'fr') {
    const name = productName.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
    return `${name || 'Qless'}-ticket-rendez-vous.pdf`;
  }
  const slug = productName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  return `${slug || 'ticket'}_appointment_ticket.pdf`;
}

/** "Organization:" in English; French puts a no-break space before the colon. */
export function withColon(label: string, locale: Locale): string {
  return locale === 'fr' ? `${label}\u00a0:` : `${label}:`;
}

/** Every text of the PDF, in the UI language (dates fr-CM / en-CM, the zone as people say it). */
export function ticketLabels(ticket: Ticket, i18n: TicketI18n): TicketLabels {
  const { t, locale } = i18n;
  const row = (key: MessageKey) => withColon(t(key), locale);
  // The zone's offset on the appointment's day (noon UTC stays on that date everywhere).
  const at = new Date(`${ticket.date}T12:00:00Z`);
  return {
    title: t('ticket.title'),
    organization: row('booking.row.organization'),
    location: row('booking.row.location'),
    service: row('booking.row.service'),
    date: row('booking.row.date'),
    time: row('booking.row.time'),
    username: row('booking.row.username'),
    email: row('booking.row.email'),
    phone: row('booking.row.phone'),
    serviceName: localizedText(ticket.service, ticket.service_fr, locale),
    code: t('booking.row.code'),
    arrive: t('ticket.arrive'),
    formattedDate: formatDate(ticket.date, i18n.intlLocale, LONG_DATE),
    formattedTime: `${ticket.time}, ${i18n.zone(ticket.time_zone, at)}`,
  };
}

/**
 * What the QR holds: the compact signed token alone (the code and its signature, 104
 * characters). The link with a JWT it replaces took 471 and drew a code too dense for a
 * cracked screen; the counter's scanner still reads those.
 */
export function ticketQrText(ticket: Ticket): string {
  return ticket.token;
}

/**
 * Builds and saves the PDF. jsPDF and the QR encoder load only now, as their own chunk
 * (they are ~130 KB gzipped). The QR holds the compact signed token the desk verifies.
 */
export async function downloadTicket(
  ticket: Ticket,
  i18n: TicketI18n,
  options: { origin: string; productName: string },
): Promise<void> {
  const { renderTicketPdf } = await import('./ticket-pdf');
  const doc = await renderTicketPdf(ticket, ticketLabels(ticket, i18n), ticketQrText(ticket));
  doc.save(ticketFileName(options.productName, i18n.locale));
}
