/** Spec 9: descriptions are cut to 8 words. */
const DESCRIPTION_WORDS = 8;

/** Breaking whitespace: a no-break space (French "10 000 FCFA", "mots :") joins words. */
const BREAKING_SPACE = /[^\S\u00a0\u202f]+/;

/** The first `words` words followed by " ..." when the text is longer (spec 2 and 9). */
export function truncateWords(text: string, words: number = DESCRIPTION_WORDS): string {
  const parts = text.trim().split(BREAKING_SPACE).filter(Boolean);
  if (parts.length <= words) return parts.join(' ');
  return `${parts.slice(0, words).join(' ')} ...`;
}
