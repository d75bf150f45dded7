import { frenchCounterArticle, type WaitEstimate } from '@qless/contract';
import type { MessageKey } from '../../../i18n/en';
import type { Locale, Params } from '../../../i18n/i18n';
import { ordinal } from '../../../lib/ordinal';

type Translate = (key: MessageKey, params?: Params) => string;

/** A place in line as each language writes it (1st, 1er): one helper for the whole app. */
export { ordinal };

/** "about 10–20 min" / "environ 10 à 20 min": a range, never one exact minute. */
export function estimateText(t: Translate, estimate: WaitEstimate): string {
  const { min_minutes: min, max_minutes: max } = estimate;
  if (max <= 0) return t('queue.turn.soon');
  if (min >= max) return t('queue.turn.about', { min: max });
  return t('queue.turn.range', { min, max });
}

/** "You are 4th — about 10–20 min" / "Vous êtes le 4e — environ 10 à 20 min". */
export function positionText(
  t: Translate,
  locale: Locale,
  position: number,
  estimate: WaitEstimate | null,
): string {
  const place = t('queue.turn.position', { ordinal: ordinal(position, locale) });
  return estimate ? `${place} — ${estimateText(t, estimate)}` : place;
}

/**
 * A waiting visitor's line: "You are 4th — about 10–20 min", or, while no counter serving
 * their service is open, "You are 1st · Counters are not open yet" (no estimate: nobody can
 * call them yet; decision 120). `countersOpen` absent (an older server): open.
 */
export function waitingText(
  t: Translate,
  locale: Locale,
  position: number | null,
  estimate: WaitEstimate | null,
  countersOpen: boolean | undefined,
): string {
  const closed = countersOpen === false;
  const place =
    position === null
      ? t('queue.turn.inLine')
      : positionText(t, locale, position, closed ? null : estimate);
  // The dot stays with the place ("1st ·"), so a narrow phone breaks after it.
  return closed ? `${place}\u00a0· ${t('queue.turn.notOpen')}` : place;
}

/** "A-042" said one sign at a time: "A 0 4 2" (a speech engine reads "042" as forty-two). */
export function spelledNumber(number: string): string {
  return number
    .replace(/[^0-9A-Za-z]/g, '')
    .split('')
    .join(' ');
}

/**
 * The call the board says, in French then English, as a counter clerk says it: "Le numéro A
 * 42, au guichet 3" and "Number A 42, counter 3" — the number without its zeros, so a voice
 * says "quarante-deux", not "zéro quatre deux". A counter named "Guichet 3" is "counter 3" in
 * English; another name is said as written, after its French article ("à la Caisse 2").
 */
export function spokenCall(number: string, counter: string): { fr: string; en: string } {
  const match = /^([A-Za-z]*)[^0-9]*0*(\d+)$/.exec(number.trim());
  const said = match ? `${match[1] ? `${match[1]} ` : ''}${match[2]}` : spelledNumber(number);
  const name = counter.trim();
  const guichet = /^guichet\b\s*(.*)$/i.exec(name);
  const fr = guichet
    ? `au guichet ${guichet[1]}`.trim()
    : `${frenchCounterArticle(name, "'")}${name}`;
  const en = guichet ? `counter ${guichet[1]}`.trim() : name;
  return { fr: `Le numéro ${said}, ${fr}`, en: `Number ${said}, ${en}` };
}
