import { PHONE_PREFIX } from './constants.js';

/**
 * Cameroonian mobile numbers: 9 digits starting with 6, optionally written with the
 * country code (+237, 237 or 00237) and with spaces, dots or dashes between groups.
 * Normalized form: E.164, "+2376xxxxxxxx".
 */
export function normalizeCameroonMobile(input: string): string | null {
  const compact = input.replace(/[\s.\-()]/g, '');
  const match = /^(?:\+237|00237|237)?(6\d{8})$/.exec(compact);
  return match ? `${PHONE_PREFIX}${match[1]}` : null;
}

/** The 9-digit local part of a normalized number. */
export function localPart(e164: string): string {
  return e164.startsWith(PHONE_PREFIX) ? e164.slice(PHONE_PREFIX.length) : e164;
}

/** The mobile money operators a Cameroonian number can pay with (Campay collects both). */
export type MobileOperator = 'MTN' | 'ORANGE';

/**
 * Number ranges by their first three digits (ART's allocation: MTN 67x, 650–654, 680–683;
 * Orange 69x, 655–659, 685–689). Anything else (Nexttel 66x, Camtel 62x, ranges not yet
 * allocated) is no operator we can name.
 */
const OPERATOR_RANGES: readonly { operator: MobileOperator; from: number; to: number }[] = [
  { operator: 'MTN', from: 670, to: 679 },
  { operator: 'MTN', from: 650, to: 654 },
  { operator: 'MTN', from: 680, to: 683 },
  { operator: 'ORANGE', from: 690, to: 699 },
  { operator: 'ORANGE', from: 655, to: 659 },
  { operator: 'ORANGE', from: 685, to: 689 },
];

/** The operator of a Cameroonian mobile number (any form `normalizeCameroonMobile` takes), or null. */
export function mobileOperator(phone: string): MobileOperator | null {
  const e164 = normalizeCameroonMobile(phone);
  if (!e164) return null;
  const prefix = Number(localPart(e164).slice(0, 3));
  return OPERATOR_RANGES.find((r) => prefix >= r.from && prefix <= r.to)?.operator ?? null;
}
