import { formatMinutes, PLATFORM_FEE_XAF, zoneLabel } from '@qless/contract';
import { fitSms } from '../../providers/sms/sms-fit.js';
import type { RenderedMessage } from '../outbox/outbox.module.js';
import type { BookingMessageEvent } from './message-rows.js';

/**
 * The words of customers' messages, in English and in French. French follows French
 * typography in e-mail (no-break space before ":", "’", "FCFA"); an SMS is the same text
 * brought into the GSM alphabet (plain spaces and quotes, ô → o), so that two parts carry
 * 306 characters instead of 134. Times are written as on the ticket ("09:30").
 */
export interface MessageFacts {
  event: BookingMessageEvent;
  locale: 'en' | 'fr';
  customerName: string;
  organization: string;
  /** Street address and city, as the organization gave them ("" when it gave none). */
  address: string;
  service: string;
  /** yyyy-MM-dd and minutes since midnight, on the organization's wall clock. */
  date: string;
  startMinutes: number;
  timeZone: string;
  ticketCode: string;
  link: string;
  cancelledByOrganization: boolean;
  /** Reschedule: where the booking was moved from, when known. */
  previous: { date: string; startMinutes: number } | null;
  /** The slot's day seen from the organization's today when the message is sent. */
  relativeDay: 'today' | 'tomorrow' | null;
  /** When the message is written (the zone's offset is the one then). */
  at: Date;
}

const INTL = { en: 'en-CM', fr: 'fr-CM' } as const;
const NBSP = '\u00a0';

function calendarDate(date: string): Date {
  return new Date(`${date}T12:00:00Z`);
}

function shortDate(locale: 'en' | 'fr', date: string): string {
  return new Intl.DateTimeFormat(INTL[locale], {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(calendarDate(date));
}

function longDate(locale: 'en' | 'fr', date: string): string {
  return new Intl.DateTimeFormat(INTL[locale], {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(calendarDate(date));
}

const RELATIVE = {
  en: { today: 'today, ', tomorrow: 'tomorrow, ' },
  fr: { today: 'aujourd’hui, ', tomorrow: 'demain, ' },
} as const;

/** "Thu, 5 Mar at 09:30" / "jeu. 5 mars à 09:30", after "today, "/"tomorrow, " when it is. */
function when(f: MessageFacts): string {
  const rel = f.relativeDay ? RELATIVE[f.locale][f.relativeDay] : '';
  const at = f.locale === 'fr' ? 'à' : 'at';
  return `${rel}${shortDate(f.locale, f.date)} ${at} ${formatMinutes(f.startMinutes)}`;
}

/** French punctuation: a no-break space before ":" and the other high signs. */
function fr(text: string): string {
  return text.replace(/ ([:;!?])/g, `${NBSP}$1`);
}

interface Words {
  headline: string;
  subject: string;
}

function words(f: MessageFacts): Words {
  const w = when(f);
  const org = f.organization;
  if (f.locale === 'fr') {
    switch (f.event) {
      case 'confirmation':
        return {
          headline: 'Réservation confirmée',
          subject: `Réservation confirmée : ${org}, ${w}`,
        };
      case 'reminder_day_before':
      case 'reminder_2h':
        return { headline: 'Rappel de rendez-vous', subject: `Rappel : ${org}, ${w}` };
      case 'cancellation':
        return {
          headline: f.cancelledByOrganization
            ? 'Réservation annulée par l’organisation'
            : 'Réservation annulée',
          subject: `Réservation annulée : ${org}, ${w}`,
        };
      case 'reschedule':
        return {
          headline: 'Réservation déplacée',
          subject: `Réservation déplacée : ${org}, désormais ${w}`,
        };
    }
  }
  switch (f.event) {
    case 'confirmation':
      return { headline: 'Booking confirmed', subject: `Booking confirmed: ${org}, ${w}` };
    case 'reminder_day_before':
    case 'reminder_2h':
      return { headline: 'Appointment reminder', subject: `Reminder: ${org}, ${w}` };
    case 'cancellation':
      return {
        headline: f.cancelledByOrganization
          ? 'Booking cancelled by the organization'
          : 'Booking cancelled',
        subject: `Booking cancelled: ${org}, ${w}`,
      };
    case 'reschedule':
      return { headline: 'Booking moved', subject: `Booking moved: ${org}, now ${w}` };
  }
}

// ---------------------------------------------------------------- SMS

function smsWith(f: MessageFacts, organization: string, service: string): string {
  const place = [organization, service].filter(Boolean).join(', ');
  // "Place, when" — or "when" alone once the names are gone (decision 122's last resort).
  const at = place ? `${place}, ` : '';
  const after = place ? ` ${place}.` : '';
  const w = when(f);
  const ticket = f.locale === 'fr' ? `Ticket ${f.ticketCode} :` : `Ticket ${f.ticketCode}:`;
  const details = f.locale === 'fr' ? 'Détails :' : 'Details:';
  let text: string;
  if (f.locale === 'fr') {
    switch (f.event) {
      case 'confirmation':
        text = `Qless : réservation confirmée. ${at}${w}. ${ticket} ${f.link}`;
        break;
      case 'reminder_day_before':
      case 'reminder_2h':
        text = `Qless, rappel : ${at}${w}. ${ticket} ${f.link}`;
        break;
      case 'cancellation':
        text = `Qless : réservation annulée${f.cancelledByOrganization ? ' par l’organisation' : ''}. ${at}${w}. ${details} ${f.link}`;
        break;
      case 'reschedule':
        text = `Qless : réservation déplacée. Nouvel horaire : ${w}.${after} ${ticket} ${f.link}`;
        break;
    }
  } else {
    switch (f.event) {
      case 'confirmation':
        text = `Qless: booking confirmed. ${at}${w}. ${ticket} ${f.link}`;
        break;
      case 'reminder_day_before':
      case 'reminder_2h':
        text = `Qless reminder: ${at}${w}. ${ticket} ${f.link}`;
        break;
      case 'cancellation':
        text = `Qless: booking cancelled${f.cancelledByOrganization ? ' by the organization' : ''}. ${at}${w}. ${details} ${f.link}`;
        break;
      case 'reschedule':
        text = `Qless: booking moved. New time: ${w}.${after} ${ticket} ${f.link}`;
        break;
    }
  }
  return text;
}

/**
 * The SMS: one part (decision 141: the booking's short link, `/t/{code}`, takes 35 characters
 * where the ticket page's took about 90), the names shortened as every SMS's are (decision
 * 122: the branch and a recognisable service kept longest); the link and the ticket code
 * never are.
 */
export function smsText(f: MessageFacts): string {
  return fitSms({ place: f.organization, service: f.service }, ({ place, service }) =>
    smsWith(f, place, service),
  );
}

// ---------------------------------------------------------------- e-mail

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

interface EmailParts {
  greeting: string;
  lead: string;
  rows: [string, string][];
  linkLabel: string;
  notes: string[];
  signature: string;
}

function emailParts(f: MessageFacts): EmailParts {
  const frLocale = f.locale === 'fr';
  const time = `${formatMinutes(f.startMinutes)}, ${zoneLabel(f.locale, f.timeZone, f.at)}`;
  const fee = frLocale ? `${PLATFORM_FEE_XAF}${NBSP}FCFA` : `${PLATFORM_FEE_XAF} XAF`;
  const rows: [string, string][] = frLocale
    ? [
        ['Organisation', f.organization],
        ...(f.address ? ([['Adresse', f.address]] as [string, string][]) : []),
        ['Service', f.service],
        ['Date', longDate('fr', f.date)],
        ['Heure', time],
        ['Ticket', f.ticketCode],
      ]
    : [
        ['Organization', f.organization],
        ...(f.address ? ([['Address', f.address]] as [string, string][]) : []),
        ['Service', f.service],
        ['Date', longDate('en', f.date)],
        ['Time', time],
        ['Ticket', f.ticketCode],
      ];
  const previous = f.previous
    ? `${longDate(f.locale, f.previous.date)}, ${formatMinutes(f.previous.startMinutes)}`
    : null;
  let lead: string;
  const notes: string[] = [];
  if (frLocale) {
    switch (f.event) {
      case 'confirmation':
        lead = 'Votre réservation est confirmée.';
        notes.push(
          'Au guichet, présentez le code QR du ticket ou donnez son code.',
          `Les frais de ${fee} ne sont pas remboursés en cas d’annulation ; ils restent valables si vous déplacez le rendez-vous.`,
        );
        break;
      case 'reminder_day_before':
      case 'reminder_2h':
        lead = `Rappel : votre rendez-vous est ${when(f)}.`;
        notes.push('Au guichet, présentez le code QR du ticket ou donnez son code.');
        break;
      case 'cancellation':
        lead = f.cancelledByOrganization
          ? `${f.organization} a annulé votre réservation.`
          : 'Votre réservation est annulée.';
        notes.push(`Les frais de ${fee} ne sont pas remboursés.`);
        break;
      case 'reschedule':
        lead = previous
          ? `Votre réservation a été déplacée. Elle était prévue le ${previous}.`
          : 'Votre réservation a été déplacée.';
        notes.push('Au guichet, présentez le code QR du ticket ou donnez son code.');
        break;
    }
    return {
      greeting: `Bonjour ${f.customerName},`,
      lead,
      rows,
      linkLabel:
        f.event === 'cancellation'
          ? 'Votre réservation :'
          : 'Votre ticket (pour le télécharger à nouveau, l’ajouter à votre agenda, déplacer ou annuler le rendez-vous) :',
      notes,
      signature: 'L’équipe Qless',
    };
  }
  switch (f.event) {
    case 'confirmation':
      lead = 'Your booking is confirmed.';
      notes.push(
        'At the counter, show the ticket’s QR code or give its code.',
        `The ${fee} fee is not refunded if you cancel; it carries over if you reschedule.`,
      );
      break;
    case 'reminder_day_before':
    case 'reminder_2h':
      lead = `A reminder: your appointment is ${when(f)}.`;
      notes.push('At the counter, show the ticket’s QR code or give its code.');
      break;
    case 'cancellation':
      lead = f.cancelledByOrganization
        ? `${f.organization} cancelled your booking.`
        : 'Your booking is cancelled.';
      notes.push(`The ${fee} fee is not refunded.`);
      break;
    case 'reschedule':
      lead = previous
        ? `Your booking was moved. It was on ${previous}.`
        : 'Your booking was moved.';
      notes.push('At the counter, show the ticket’s QR code or give its code.');
      break;
  }
  return {
    greeting: `Hello ${f.customerName},`,
    lead,
    rows,
    linkLabel:
      f.event === 'cancellation'
        ? 'Your booking:'
        : 'Your ticket (to download it again, add it to your calendar, reschedule or cancel):',
    notes,
    signature: 'The Qless team',
  };
}

/** The e-mail: subject, plain text and a simple HTML version of the same words. */
export function emailMessage(f: MessageFacts): RenderedMessage {
  const typo = f.locale === 'fr' ? fr : (t: string) => t;
  const p = emailParts(f);
  const { headline, subject } = words(f);
  const sep = f.locale === 'fr' ? `${NBSP}: ` : ': ';
  const text = [
    typo(p.greeting),
    '',
    typo(p.lead),
    '',
    ...p.rows.map(([label, value]) => `${label}${sep}${value}`),
    '',
    typo(p.linkLabel),
    f.link,
    '',
    ...p.notes.map(typo),
    '',
    p.signature,
    '',
  ].join('\n');
  const lang = f.locale;
  const html = [
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(typo(subject))}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;line-height:1.5;max-width:560px">',
    `<h1 style="font-size:20px">${escapeHtml(typo(headline))}</h1>`,
    `<p>${escapeHtml(typo(p.greeting))}</p>`,
    `<p>${escapeHtml(typo(p.lead))}</p>`,
    '<table style="border-collapse:collapse">',
    ...p.rows.map(
      ([label, value]) =>
        `<tr><th style="text-align:left;padding:2px 12px 2px 0;font-weight:normal;color:#555">${escapeHtml(label)}</th><td style="padding:2px 0"><strong>${escapeHtml(value)}</strong></td></tr>`,
    ),
    '</table>',
    `<p>${escapeHtml(typo(p.linkLabel))}<br><a href="${escapeHtml(f.link)}">${escapeHtml(f.link)}</a></p>`,
    ...p.notes.map((n) => `<p style="color:#555">${escapeHtml(typo(n))}</p>`),
    `<p>${escapeHtml(p.signature)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: typo(subject), text, html };
}
