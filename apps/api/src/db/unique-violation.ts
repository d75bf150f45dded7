/**
 * PostgreSQL's unique_violation (SQLSTATE 23505), of `constraint` when one is named. Both
 * engines report it alike (pg's DatabaseError and PGlite's carry `code` and `constraint`),
 * so a race that two inserts lose the same way is told apart from any other failure here.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; constraint?: unknown };
  return e.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
