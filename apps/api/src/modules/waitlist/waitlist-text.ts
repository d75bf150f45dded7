/**
 * The one SMS of a waitlist entry: a seat of the day it waits for is free. GSM-7, one part
 * (160 characters): the names are shortened until it fits (decision 122), the link never is. Times are the
 * organization's clock; the offer's end says how long the link is worth following.
 */
import { formatMinutes } from '@qless/contract';
import { fitSms } from '../../providers/sms/sms-fit.js';

export interface OfferFacts {
  locale: 'en' | 'fr';
  organization: string;
  service: string;
  /** yyyy-MM-dd */
  date: string;
  startMinutes: number;
  /** The offer's end on the organization's clock (minutes since its midnight). */
  endsMinutes: number;
  link: string;
}

/** The short link of an offer (`/w/{code}`), answered by a redirect to the slots page. */
export function offerLink(origin: string, entryId: string): string {
  return `${origin.replace(/\/+$/, '')}/w/${compactId(entryId)}`;
}

/** A UUID as 22 base64url characters (an SMS has few to spare). */
export function compactId(uuid: string): string {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex').toString('base64url');
}

/** The UUID of a compact id, or null when it is not one. */
export function expandId(code: string): string | null {
  if (!/^[A-Za-z0-9_-]{22}$/.test(code)) return null;
  const hex = Buffer.from(code, 'base64url').toString('hex');
  if (hex.length !== 32) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function dayMonth(date: string): string {
  const [, month, day] = date.split('-');
  return `${day}/${month}`;
}

const frTime = (minutes: number) => formatMinutes(minutes).replace(':', 'h');

/**
 * One part (decision 122): the branch and a recognisable service are kept longest ("Ouverture
 * de compte", never "Ouverture"); "first to pay gets it" goes before them.
 */
export function offerText(f: OfferFacts): string {
  return fitSms({ place: f.organization, service: f.service }, ({ place, service, optional }) => {
    const names = [place, service].filter(Boolean);
    const where = names.length > 0 ? ` ${names.join(', ')},` : '';
    return f.locale === 'fr'
      ? `Place libre :${where} le ${dayMonth(f.date)} à ${frTime(f.startMinutes)}.${optional >= 1 ? " Le 1er qui paie l'obtient." : ''} Offre jusqu'à ${frTime(f.endsMinutes)} : ${f.link}`
      : `Seat free:${where} ${dayMonth(f.date)} at ${formatMinutes(f.startMinutes)}.${optional >= 1 ? ' First to pay gets it.' : ''} Offer ends ${formatMinutes(f.endsMinutes)}: ${f.link}`;
  });
}
