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
