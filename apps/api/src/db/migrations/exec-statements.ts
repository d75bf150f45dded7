import { type Kysely, sql } from 'kysely';

/**
 * Runs a script of statements one by one: PGlite's parameterised query path takes one
 * statement at a time, so a migration script is split on the semicolons that end lines.
 */
export async function execStatements(db: Kysely<unknown>, script: string): Promise<void> {
  const statements = script
    .split(/;\s*\n/)
    .map((s) => s.trim())
    .filter((s) => s.replace(/--[^\n]*/g, '').trim().length > 0);
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}
