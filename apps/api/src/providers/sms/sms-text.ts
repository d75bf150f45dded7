/**
 * What an SMS costs in parts. Text made only of the GSM 03.38 alphabet travels 7 bits a
 * character: 160 in one part, 153 a part when split (the rest carries the joining header).
 * Any other character sends the whole text as UCS-2: 70 in one part, 67 a part when split.
 */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Characters of the extension table: two septets each. */
const GSM_EXTENDED = '^{}\\[~]|€\f';
const BASIC = new Set(GSM_BASIC);
const EXTENDED = new Set(GSM_EXTENDED);

/** Septets of `text` when it is all GSM 03.38, else null. */
export function gsmLength(text: string): number | null {
  let n = 0;
  for (const ch of text) {
    if (BASIC.has(ch)) n += 1;
    else if (EXTENDED.has(ch)) n += 2;
    else return null;
  }
  return n;
}

export function smsParts(text: string): number {
  const septets = gsmLength(text);
  if (septets !== null) return septets <= 160 ? 1 : Math.ceil(septets / 153);
  const units = text.length;
  return units <= 70 ? 1 : Math.ceil(units / 67);
}

/** Typographic characters with a GSM stand-in. */
const STAND_INS: Record<string, string> = {
  '\u00a0': ' ',
  '\u202f': ' ',
  '\u2009': ' ',
  '’': "'",
  '‘': "'",
  '«': '"',
  '»': '"',
  '“': '"',
  '”': '"',
  '…': '...',
  '–': '-',
  '—': '-',
  '·': '-',
};

/**
 * `text` in the GSM alphabet, so that it travels 160 characters a part instead of 70:
 * French spacing and quotes become their plain forms, a letter outside the alphabet its
 * base letter (ô → o, ç → c; é, è, à, ù and É are in it and stay), anything else "?".
 */
export function toGsm(text: string): string {
  let out = '';
  for (const ch of text) {
    if (BASIC.has(ch) || EXTENDED.has(ch)) out += ch;
    else if (STAND_INS[ch] !== undefined) out += STAND_INS[ch];
    else {
      const base = ch.normalize('NFD').replace(/\p{M}+/gu, '');
      out += base.length > 0 && [...base].every((c) => BASIC.has(c)) ? base : '?';
    }
  }
  return out;
}

/** One SMS part in the GSM alphabet. */
export const ONE_PART = 160;

/**
 * `text` shortened to `max` characters at a word where one is near, so a name never ends in
 * "(" or half a word, nor on a small word that reads unfinished ("… de", "… of"). 0: ''.
 */
export function clipName(text: string, max: number): string {
  if (max <= 0) return '';
  const t = text.trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, Math.max(1, max - 1));
  const space = cut.lastIndexOf(' ');
  const word = space >= max / 2 ? cut.slice(0, space) : cut;
  return word
    .replace(/[\s(,;:–—-]+$/u, '')
    .replace(/\s+(?:de|du|des|d'|la|le|les|et|of|the|and|for|a|à)$/iu, '')
    .replace(/[\s(,;:–—-]+$/u, '');
}

/**
 * The first of `steps` whose text (names shortened less to more; the link never is) fits one
 * GSM-7 part, in the GSM alphabet; the last one when none does.
 */
export function firstInOnePart<T>(steps: readonly T[], write: (step: T) => string): string {
  let text = '';
  for (const step of steps) {
    text = toGsm(write(step));
    if ((gsmLength(text) ?? Number.POSITIVE_INFINITY) <= ONE_PART) return text;
  }
  return text;
}
