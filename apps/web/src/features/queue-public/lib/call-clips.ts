/**
 * A call said from the recorded words bundled with the app (decision 137), as a counter clerk
 * says it: "Le numéro P un, au guichet deux" / "Number P one, counter two" — the clips' paths
 * in order, or null when a part has no clip (a counter named otherwise than "Guichet N", a
 * number past 999): the board then falls back to the browser's voice, then to the chime.
 * The clips are made by scripts/voice-clips.mjs; every name used here must be one it makes.
 */
export const VOICE_PATH = '/voice';

type Lang = 'fr' | 'en';

/** 1–999 in French words' clips: "soixante et onze" is n-60 et n-11. */
function frenchNumber(n: number): string[] {
  if (n < 20) return [`n-${n}`];
  if (n < 70) {
    const tens = Math.floor(n / 10) * 10;
    const unit = n % 10;
    if (unit === 0) return [`n-${tens}`];
    return unit === 1 ? [`n-${tens}`, 'et', 'n-1'] : [`n-${tens}`, `n-${unit}`];
  }
  if (n < 80) return n === 71 ? ['n-60', 'et', 'n-11'] : ['n-60', `n-${n - 60}`];
  if (n < 100) return n === 80 ? ['n-80s'] : ['n-80', `n-${n - 80}`];
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  return [
    ...(hundreds === 1 ? [] : [`n-${hundreds}`]),
    'cent',
    ...(rest ? frenchNumber(rest) : []),
  ];
}

/** 1–999 in British English words' clips: "one hundred and five". */
function englishNumber(n: number): string[] {
  if (n < 20) return [`n-${n}`];
  if (n < 100) {
    const tens = Math.floor(n / 10) * 10;
    return n % 10 ? [`n-${tens}`, `n-${n % 10}`] : [`n-${tens}`];
  }
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  return [`n-${hundreds}`, 'hundred', ...(rest ? ['and', ...englishNumber(rest)] : [])];
}

const numberWords = (lang: Lang, n: number) => (lang === 'fr' ? frenchNumber(n) : englishNumber(n));

/** "A-042" → letter A and 42; null when it is not a letter and 1–999. */
function parseVisitNumber(number: string): { letter: string; n: number } | null {
  const match = /^([A-Za-z])-?0*(\d{1,3})$/.exec(number.trim());
  const n = Number(match?.[2]);
  return match?.[1] && n >= 1 && n <= 999 ? { letter: match[1].toLowerCase(), n } : null;
}

/** The clips of one call in one language, or null when a part has none. */
export function callClips(number: string, counter: string, lang: Lang): string[] | null {
  const visit = parseVisitNumber(number);
  const guichet = /^(?:guichet|counter)\s*0*(\d{1,3})$/i.exec(counter.trim());
  const desk = Number(guichet?.[1]);
  if (!visit || !guichet || desk < 1) return null;
  return [
    'numero',
    `l-${visit.letter}`,
    ...numberWords(lang, visit.n),
    'guichet',
    ...numberWords(lang, desk),
  ].map((name) => `${VOICE_PATH}/${lang}/${name}.ogg`);
}
