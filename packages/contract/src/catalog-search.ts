/**
 * Catalogue search: accent- and case-insensitive, the same on the server (SQL,
 * migration 009) and in the browser. Zod-free: the web app imports it from `core`.
 *
 * Folding is one table applied character by character — PostgreSQL's `translate()` with
 * these two strings, and `foldForSearch` here — so both sides fold exactly alike whatever
 * the database's locale (PGlite compares bytes and lower-cases ASCII only) and with no
 * extension (`unaccent` is not immutable, so it cannot feed a generated column).
 */
export const SEARCH_FOLD_FROM =
  'ÀÁÂÃÄÅàáâãäåĀāĂăĄąÇçĆćČčĎďÈÉÊËèéêëĒēĖėĘęĚěĞğÌÍÎÏìíîïĪīİıÑñŃńŇňÒÓÔÕÖØòóôõöøŌōŐőŘřŚśŠšŞşŤťÙÚÛÜùúûüŪūŮůŰűÝŸýÿŽžŹźŻżŁł’‘ʼ–—';
export const SEARCH_FOLD_TO =
  "aaaaaaaaaaaaaaaaaaccccccddeeeeeeeeeeeeeeeeggiiiiiiiiiiiinnnnnnoooooooooooooooorrssssssttuuuuuuuuuuuuuuyyyyzzzzzzll'''--";

/** Ligatures `translate()` cannot map (one character to two), replaced first. */
export const SEARCH_LIGATURES: readonly (readonly [string, string])[] = [
  ['œ', 'oe'],
  ['Œ', 'oe'],
  ['æ', 'ae'],
  ['Æ', 'ae'],
  ['ß', 'ss'],
];

const FOLD = new Map<string, string>();
{
  const from = [...SEARCH_FOLD_FROM];
  const to = [...SEARCH_FOLD_TO];
  if (from.length !== to.length) throw new Error('search fold table: lengths differ');
  for (const [i, ch] of from.entries()) FOLD.set(ch, to[i] as string);
}

/**
 * Text as search compares it: ligatures spelled out, the table's accented letters and
 * typographic apostrophes/dashes folded, ASCII lower-cased (what `lower()` does in every
 * locale). Equal to the SQL expression of migration 009 for every input.
 */
export function foldForSearch(text: string): string {
  let out = text;
  for (const [from, to] of SEARCH_LIGATURES) out = out.replaceAll(from, to);
  let folded = '';
  for (const ch of out) {
    const mapped = FOLD.get(ch);
    if (mapped !== undefined) folded += mapped;
    else if (ch >= 'A' && ch <= 'Z') folded += ch.toLowerCase();
    else folded += ch;
  }
  return folded;
}

/** The page size of an organization search that names none (and the web list's). */
export const DEFAULT_ORGANIZATIONS_PAGE_SIZE = 12;

/** At most this many words of a query are used; the rest is ignored. */
export const MAX_SEARCH_WORDS = 8;
/** A query's longest accepted length (characters). */
export const MAX_SEARCH_LENGTH = 100;
/** Category synonyms are looked up only for words at least this long ("ba" is not a bank). */
const MIN_CATEGORY_WORD = 3;

/** The folded words of a query (blank: none). */
export function searchWords(query: string): string[] {
  return foldForSearch(query)
    .split(/[\s,;]+/u)
    .filter((w) => w !== '')
    .slice(0, MAX_SEARCH_WORDS);
}

/**
 * Kinds of organization in both languages: a search for "banque" finds the organizations
 * whose category reads "bank", and "hospital" finds a category typed "Hôpital". Categories
 * are free text; these are the usual ones (the demo data's among them).
 */
export const CATEGORY_SYNONYMS: readonly (readonly string[])[] = [
  ['bank', 'banque'],
  ['hospital', 'hôpital'],
  ['clinic', 'clinique', 'polyclinique'],
  ['civil registry', 'civil-registry', 'état civil', 'mairie', 'town hall'],
  ['tax office', 'tax-office', 'impôts', 'tax'],
  // Electricity and water are both utilities but not each other: no synonyms between them.
  ['utility', 'utilities'],
  ['university', 'université'],
  ['microfinance', 'micro-finance', 'mutuelle', 'épargne', 'savings'],
  ['telecom', 'télécom', 'telecommunications', 'télécommunications'],
  ['passport office', 'passport-office', 'passport', 'passeport', 'passeports', 'identification'],
];

/**
 * The folded category terms a query word stands for: every synonym of each group one of
 * whose terms contains the word (so "banq" and "bank" both give ["bank", "banque"]).
 */
export function categoryTermsFor(word: string): string[] {
  const w = foldForSearch(word);
  if (w.length < MIN_CATEGORY_WORD) return [];
  const terms = new Set<string>();
  for (const group of CATEGORY_SYNONYMS) {
    const folded = group.map(foldForSearch);
    if (folded.some((term) => term.includes(w))) for (const term of folded) terms.add(term);
  }
  return [...terms];
}
