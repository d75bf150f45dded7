import { SEARCH_FOLD_FROM, SEARCH_FOLD_TO, SEARCH_LIGATURES } from '@qless/contract/core';
import { type Kysely, sql } from 'kysely';

const ASCII_UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ASCII_LOWER = 'abcdefghijklmnopqrstuvwxyz';

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The SQL twin of `foldForSearch` (packages/contract/src/catalog-search.ts): ligatures
 * spelled out, then one `translate()` that folds the accented letters, typographic
 * apostrophes and dashes, and ASCII capitals. No `lower()`: its result depends on the
 * database's locale (PGlite's C locale only lowers ASCII), and the table does not.
 * Immutable, so it can feed a generated column.
 */
export function foldSql(column: string): string {
  let expression = column;
  for (const [from, to] of SEARCH_LIGATURES) {
    expression = `replace(${expression}, ${literal(from)}, ${literal(to)})`;
  }
  return `translate(${expression}, ${literal(SEARCH_FOLD_FROM + ASCII_UPPER)}, ${literal(SEARCH_FOLD_TO + ASCII_LOWER)})`;
}

/**
 * Catalogue search: organizations carry their name, city and category folded
 * for an accent- and case-insensitive search, kept up to date by PostgreSQL itself
 * (generated columns), so no write path can forget them. `search_category` alone lets a
 * word match a category by its synonyms ("banque" → "bank") without matching names.
 *
 * No index: the search is a substring match (`like '%word%'`), which a b-tree cannot
 * serve; a trigram index would need the pg_trgm extension on every server, for a table of
 * hundreds of rows that a sequential scan reads in well under a millisecond.
 * One statement per entry (PGlite's extended protocol takes one at a time).
 */
const statements = [
  `alter table organizations add column search_text text generated always as (${foldSql('name')} || ' ' || ${foldSql('city')} || ' ' || ${foldSql('category')}) stored`,
  `alter table organizations add column search_category text generated always as (${foldSql('category')}) stored`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
