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

// Fitting a text to its parts (names shortened, the link never): sms-fit.ts, decision 122.
