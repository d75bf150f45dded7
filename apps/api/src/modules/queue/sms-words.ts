/**
 * What a basic phone is answered (decision 136): one SMS of 160 GSM-7 characters, in French
 * unless the visitor wrote in English. The branch's name is shortened before anything else.
 */
import type { WaitEstimate } from '@qless/contract';
import { fitSms } from '../../providers/sms/sms-fit.js';
import { toGsm } from '../../providers/sms/sms-text.js';

export type SmsLocale = 'en' | 'fr';

const wait = (locale: SmsLocale, estimate: WaitEstimate | null) =>
  estimate && estimate.max_minutes > 0
    ? locale === 'fr'
      ? ` (env. ${estimate.min_minutes}-${estimate.max_minutes} min)`
      : ` (about ${estimate.min_minutes}-${estimate.max_minutes} min)`
    : '';

const ahead = (locale: SmsLocale, position: number | null) =>
  position === null || position <= 1
    ? locale === 'fr'
      ? 'personne avant vous'
      : 'nobody ahead of you'
    : locale === 'fr'
      ? `${position - 1} avant vous`
      : `${position - 1} ahead of you`;

/** "Banque X (Akwa): votre numéro A-012, 3 avant vous (env. 10-20 min). RETARD: reculer…" */
export function joinedText(f: {
  locale: SmsLocale;
  place: string;
  number: string;
  position: number | null;
  estimate: WaitEstimate | null;
}): string {
  const fr = f.locale === 'fr';
  return fitSms({ place: f.place }, ({ place, optional }) => {
    const where = place ? `${place}: ` : '';
    const how =
      optional >= 1
        ? fr
          ? " RETARD = reculer d'une place, QUITTER = partir."
          : ' LATE = move back one place, LEAVE = leave.'
        : '';
    return fr
      ? `${where}votre numéro ${f.number}, ${ahead('fr', f.position)}${wait('fr', f.estimate)}.${how}`
      : `${where}your number ${f.number}, ${ahead('en', f.position)}${wait('en', f.estimate)}.${how}`;
  });
}

export function movedBackText(locale: SmsLocale, number: string, position: number | null) {
  return toGsm(
    locale === 'fr'
      ? `Qless: ${number}, vous reculez d'une place: ${ahead('fr', position)}.`
      : `Qless: ${number}, you moved back one place: ${ahead('en', position)}.`,
  );
}

/** Every other answer: fixed words, no name of anyone. */
const WORDS = {
  left: {
    fr: 'Qless: vous avez quitté la file ({number}). Merci.',
    en: 'Qless: you left the line ({number}). Thank you.',
  },
  lateOnce: {
    fr: 'Qless: vous avez déjà reculé une fois ({number}).',
    en: 'Qless: you moved back once already ({number}).',
  },
  lastAlready: {
    fr: 'Qless: personne derrière vous ({number}), votre place est gardée.',
    en: 'Qless: nobody is behind you ({number}); your place is kept.',
  },
  cannotMove: {
    fr: 'Qless: votre place ({number}) ne peut pas reculer. Parlez au guichet.',
    en: 'Qless: your place ({number}) cannot move back. Tell the counter.',
  },
  notWaiting: {
    fr: 'Qless: vous êtes appelé ou servi ({number}). Voyez le guichet.',
    en: 'Qless: you are called or being served ({number}). See the counter.',
  },
  noVisit: {
    fr: "Qless: ce téléphone n'a pas de place dans une file aujourd'hui.",
    en: 'Qless: this phone has no place in a line today.',
  },
  unknownWord: {
    fr: "Qless: mot inconnu. Envoyez le mot et le code affichés dans l'agence, ex. AKWA 417.",
    en: 'Qless: unknown word. Send the word and code shown in the branch, e.g. AKWA 417.',
  },
  wrongCode: {
    fr: "Qless: code du jour incorrect. Lisez-le sur l'écran de l'agence: {keyword} et 3 chiffres.",
    en: "Qless: wrong code of the day. Read it on the branch's screen: {keyword} and 3 digits.",
  },
  whichService: {
    fr: 'Qless: ajoutez la lettre du service: {list}',
    en: 'Qless: add the letter of the service: {list}',
  },
  closed: {
    fr: "Qless: la file est fermée maintenant. Revenez aux heures d'ouverture.",
    en: 'Qless: the line is closed now. Come back during opening hours.',
  },
  alreadyIn: {
    fr: 'Qless: ce téléphone a déjà le numéro {number} dans cette file.',
    en: 'Qless: this phone already has number {number} in this line.',
  },
  busy: {
    fr: "Qless: trop de monde rejoint la file. Réessayez dans une minute ou demandez à l'accueil.",
    en: 'Qless: many people are joining. Try again in a minute or ask at the desk.',
  },
  tooMany: {
    fr: "Qless: trop d'essais depuis ce téléphone aujourd'hui. Demandez à l'accueil.",
    en: 'Qless: too many tries from this phone today. Ask at the desk.',
  },
  help: {
    fr: "Qless: envoyez le mot et le code affichés dans l'agence (ex. AKWA 417) pour un numéro; QUITTER pour partir; RETARD pour reculer.",
    en: 'Qless: send the word and code shown in the branch (e.g. AKWA 417) for a number; LEAVE to leave; LATE to move back.',
  },
} as const;

export type FixedReply = keyof typeof WORDS;

/** Every fixed answer (the SMS tests count their parts). */
export const FIXED_REPLIES = Object.keys(WORDS) as FixedReply[];

export function fixedText(
  kind: FixedReply,
  locale: SmsLocale,
  params: Record<string, string> = {},
): string {
  return toGsm(
    WORDS[kind][locale].replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole),
  );
}
