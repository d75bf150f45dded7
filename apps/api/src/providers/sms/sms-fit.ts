/**
 * How every SMS is brought to its parts (decision 122): one function for the
 * queue's turn SMS, the waitlist offer, the feedback request and the booking messages. The
 * builder writes its text from the names it is given; this module tries the names (and the
 * builder's optional words) from the fullest to the shortest, least useful words first, and
 * keeps the first text that fits. What the builder writes outside the names — the visitor's
 * number, the counter's name, the times, the link — is never shortened.
 *
 * The order, least useful first:
 * 1. generic words of the branch ("Agence", "Branch", "Customer Office") and asides in
 *    brackets of the service ("(NIU)");
 * 2. the builder's optional words, one group at a time ("Restez à proximité.", then
 *    "vous êtes") — unless it asks to keep them until the names are gone;
 * 3. the service's last words, down to its first two words that say something
 *    ("Ouverture de compte particulier" → "Ouverture de compte");
 * 4. the organization's last words, down to two such words, then the organization itself
 *    when a branch names the place ("Akwa");
 * 5. only then the service to one word, the service, the branch, the place.
 */
import { smsParts, toGsm } from './sms-text.js';

export interface SmsNames {
  /**
   * The organization as customers see it, with its branch: "Banque des Hauts Plateaux
   * (Banengo)" (the catalogue's form) or "Banque du Littoral – Agence Akwa".
   */
  place?: string;
  service?: string;
}

export interface SmsWords {
  /** "Banque du Littoral - Akwa": the organization and its branch, '' once left out. */
  place: string;
  /** '' once left out. */
  service: string;
  /**
   * How many of the builder's groups of optional words are still written, the most useful
   * first: a builder with two writes group 1 while `optional >= 1`, group 2 while `>= 2`.
   */
  optional: number;
}

export interface FitOptions {
  /** Parts the text may take (1 unless a builder has a reason). */
  parts?: number;
  /** Groups of optional words the builder has (1 unless it says). */
  optional?: number;
  /** Drop the optional words only after the names (they are the message's point). */
  keepOptional?: boolean;
}

/** Words that carry no meaning alone: a shortened name never ends on one, nor counts them. */
const SMALL = new Set([
  'a',
  'à',
  'au',
  'aux',
  'and',
  'd',
  'de',
  'des',
  'du',
  'en',
  'et',
  'for',
  'l',
  'la',
  'le',
  'les',
  'of',
  'pour',
  'sur',
  'the',
  'un',
  'une',
]);

const isSmall = (word: string) => SMALL.has(word.toLowerCase().replace(/['’]$/u, ''));

/** The organization and its branch of a place name ("Name (Branch)", "Name – Branch"). */
export function splitPlace(place: string): { organization: string; branch: string } {
  const text = place.trim().replace(/\s+/g, ' ');
  const bracket = /^(.*\S)\s*\(([^()]+)\)$/u.exec(text);
  // "(SA)", "(Plc)": a legal form, not a branch.
  if (bracket?.[1] && bracket[2] && !/^(?:s\.?a\.?|sarl|sas|plc|ltd|inc|gie)$/iu.test(bracket[2])) {
    return { organization: bracket[1].trim(), branch: bracket[2].trim() };
  }
  const dash = /\s[–—-]\s/u.exec(text);
  if (dash) {
    const organization = text.slice(0, dash.index).trim();
    const branch = text.slice(dash.index + dash[0].length).trim();
    if (organization && branch) return { organization, branch };
  }
  return { organization: text, branch: '' };
}

const GENERIC_LEAD =
  /^(?:agence|antenne|succursale|espace clients?|bureau|branch of)(?:\s+(?:commerciale|principale|régionale))?(?:\s+(?:de|du|des|d['’]))?\s+/iu;
const GENERIC_TAIL = /\s+(?:customer office|customer service centre|branch|agency|office)$/iu;

/** A branch without the words every branch has: "Agence Commerciale de Deido" → "Deido". */
export function plainBranch(branch: string): string {
  const plain = branch.replace(GENERIC_LEAD, '').replace(GENERIC_TAIL, '').trim();
  return plain || branch;
}

/** A service without its asides in brackets: "Taxpayer registration (NIU)" → "...registration". */
export function plainService(service: string): string {
  const plain = service
    .replace(/\s*\([^()]*\)/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  return plain || service;
}

/**
 * Shorter forms of `name` at its words, longest first, each ending on a word that says
 * something and keeping at least `minWords` of those (none when the name has no more).
 */
export function shorterForms(name: string, minWords: number): string[] {
  const words = name.split(' ').filter(Boolean);
  const forms: string[] = [];
  for (let n = words.length - 1; n >= 1; n -= 1) {
    const kept = words.slice(0, n);
    while (kept.length > 0 && isSmall(kept[kept.length - 1] ?? '')) kept.pop();
    if (kept.filter((w) => !isSmall(w)).length < minWords) break;
    const form = kept.join(' ').replace(/[\s,;:.–—-]+$/u, '');
    if (form && form !== name && !forms.includes(form)) forms.push(form);
  }
  return forms;
}

const joinPlace = (organization: string, branch: string) =>
  organization && branch ? `${organization} - ${branch}` : organization || branch;

/** Every set of words to try, fullest first (see the order at the top). */
export function candidates(names: SmsNames, options: FitOptions = {}): SmsWords[] {
  const all = options.optional ?? 1;
  const keepOptional = options.keepOptional ?? false;
  const { organization, branch: fullBranch } = splitPlace(names.place ?? '');
  const fullService = (names.service ?? '').trim().replace(/\s+/g, ' ');
  const branch = plainBranch(fullBranch);
  const service = plainService(fullService);
  const out: SmsWords[] = [];
  const add = (org: string, br: string, sv: string, optional: number) =>
    out.push({ place: joinPlace(org, br), service: sv, optional });

  const serviceForms = shorterForms(service, 2);
  const shortService = serviceForms[serviceForms.length - 1] ?? service;
  const orgForms = shorterForms(organization, 2);

  add(organization, fullBranch, fullService, all);
  add(organization, branch, service, all);
  // Optional words go one group at a time, least useful first: before the names, or (when
  // the builder keeps them) after the names are gone.
  if (!keepOptional) for (let k = all - 1; k >= 0; k -= 1) add(organization, branch, service, k);
  const kept = keepOptional ? all : 0;
  for (const sv of serviceForms) add(organization, branch, sv, kept);
  for (const org of orgForms) add(org, branch, shortService, kept);
  const lastOrg = orgForms[orgForms.length - 1] ?? organization;
  if (branch) add('', branch, shortService, kept);
  const placeNow = branch ? '' : lastOrg;
  for (const sv of shorterForms(shortService, 1)) add(placeNow, branch, sv, kept);
  add(placeNow, branch, '', kept);
  if (!branch) for (const org of shorterForms(lastOrg, 1)) add(org, '', '', kept);
  for (const br of shorterForms(branch, 1)) add('', br, '', kept);
  add('', '', '', kept);
  if (keepOptional) for (let k = all - 1; k >= 0; k -= 1) add('', '', '', k);
  return out;
}

/**
 * The first text `write` makes from the candidates that fits `parts` (in the GSM alphabet:
 * `toGsm` keeps é, è, à, ù and brings ê, ô, ç… to their base letter, so the text is measured
 * at 160 characters a part, 153 when split); the shortest when none does.
 */
export function fitSms(
  names: SmsNames,
  write: (words: SmsWords) => string,
  options: FitOptions = {},
): string {
  const parts = options.parts ?? 1;
  let text = '';
  let tried = '';
  for (const words of candidates(names, options)) {
    text = toGsm(write(words));
    if (text === tried) continue;
    tried = text;
    if (smsParts(text) <= parts) return text;
  }
  return text;
}
