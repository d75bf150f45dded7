import type { Locale } from '../i18n/i18n';

/**
 * A place in line as each language writes it: 1st 2nd 3rd 4th 11th 12th 13th 21st 22nd;
 * French 1er (1re for a feminine noun), then "e" for every other rank — 2e, 3e, 21e — as the
 * Imprimerie nationale writes them ("1e" is wrong).
 */
export function ordinal(n: number, locale: Locale, gender: 'm' | 'f' = 'm'): string {
  if (locale === 'fr') return n === 1 ? (gender === 'f' ? '1re' : '1er') : `${n}e`;
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  const unit = n % 10;
  return `${n}${unit === 1 ? 'st' : unit === 2 ? 'nd' : unit === 3 ? 'rd' : 'th'}`;
}
