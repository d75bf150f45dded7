import {
  categoryTermsFor,
  minutesToWire,
  type Organization,
  PROFILE_REQUIRED_FIELDS,
  type ProfileMissingItem,
  searchWords,
} from '@qless/contract';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { DB, Db, OrganizationRow } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';

export function toOrganization(row: OrganizationRow): Organization {
  return {
    organization_id: row.id,
    name: row.name,
    location: row.location,
    city: row.city,
    category: row.category,
    image_url: row.image_url,
    // The address it chose to publish, never the sign-in e-mail (decision 018); '' when none.
    email: row.public_email ?? '',
    time_zone: row.time_zone,
    start_time: minutesToWire(timeToMinutes(row.start_time)),
    end_time: minutesToWire(timeToMinutes(row.end_time)),
  };
}

type RequiredField = (typeof PROFILE_REQUIRED_FIELDS)[number];
type ProfileRow = Pick<OrganizationRow, RequiredField | 'open_days_confirmed'>;

/** Required profile fields still blank (spaces count as blank), and unconfirmed days. */
export function missingFields(row: ProfileRow): ProfileMissingItem[] {
  const blank: ProfileMissingItem[] = PROFILE_REQUIRED_FIELDS.filter(
    (field) => row[field].trim() === '',
  );
  return row.open_days_confirmed ? blank : [...blank, 'open_days'];
}

/** Customers can find it: active, verified by an operator, and its profile complete. */
export function isListed(
  row: ProfileRow & Pick<OrganizationRow, 'active' | 'verified_at'>,
): boolean {
  return row.active && row.verified_at !== null && missingFields(row).length === 0;
}

/**
 * The SQL twin of `isListed` for the organizations table under `alias`: the one rule for
 * every public read, so an unlisted organization's services and slots are unknown too.
 */
export function listedCondition(alias: string): Expression<SqlBool> {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  const filled = PROFILE_REQUIRED_FIELDS.map((field) => sql`btrim(${col(field)}) <> ''`);
  return sql<SqlBool>`(${col('active')} and ${col('verified_at')} is not null and ${col('open_days_confirmed')} and ${sql.join(filled, sql` and `)})`;
}

/**
 * Sorted the way people read names ("Énergie" with the E's), whatever the database's
 * collation: PGlite and many servers compare bytes, which puts accented names last.
 */
export const byName = new Intl.Collator('fr', { sensitivity: 'base', numeric: true }).compare;

export async function listListedOrganizations(db: Db): Promise<OrganizationRow[]> {
  const rows = await db
    .selectFrom('organizations as o')
    .selectAll('o')
    .where(listedCondition('o'))
    .execute();
  return rows.sort((a, b) => byName(a.name, b.name));
}

/** A value for `like` that matches `text` anywhere, its wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of the listed organizations matching every word of `query` (folded: accents
 * and case ignored) in their name, city or category, or in a category by one of its
 * synonyms in either language ("banque" finds "bank"); ordered by folded name, the same
 * way on every engine and locale. A blank query matches every listed organization.
 */
export async function searchListedOrganizations(
  db: Db,
  query: string,
  page: number,
  pageSize: number,
): Promise<{ rows: OrganizationRow[]; total: number }> {
  const words = searchWords(query);
  const matches = (eb: ExpressionBuilder<DB & { o: DB['organizations'] }, 'o'>) =>
    eb.and(
      words.map((word) =>
        eb.or([
          eb('o.search_text', 'like', containsPattern(word)),
          ...categoryTermsFor(word).map((term) =>
            eb('o.search_category', 'like', containsPattern(term)),
          ),
        ]),
      ),
    );
  const base = db
    .selectFrom('organizations as o')
    .where(listedCondition('o'))
    .where((eb) => matches(eb));
  const counted = await base
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .selectAll('o')
    .orderBy(sql`o.search_text collate "C"`)
    .orderBy('o.id')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { rows, total: Number(counted.n) };
}

export function findListedOrganization(db: Db, id: string): Promise<OrganizationRow | undefined> {
  return db
    .selectFrom('organizations as o')
    .selectAll('o')
    .where('o.id', '=', id)
    .where(listedCondition('o'))
    .executeTakeFirst();
}

/** Any organization, listed or not (the organization area and operators). */
export function findOrganization(db: Db, id: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Days of the week as the bitmask stored in organizations.open_days (bit d = day d). */
export function openDaysToMask(days: readonly number[]): number {
  return days.reduce((mask, day) => mask | (1 << day), 0);
}

export function maskToOpenDays(mask: number): number[] {
  return [0, 1, 2, 3, 4, 5, 6].filter((day) => (mask & (1 << day)) !== 0);
}

export function isOpenOn(mask: number, weekday: number): boolean {
  return (mask & (1 << weekday)) !== 0;
}

/** Closure dates of an organization from `from` to `to` (inclusive), ascending. */
export function listClosures(
  db: Db,
  organizationId: string,
  from: string,
  to?: string,
): Promise<{ date: string; reason: string }[]> {
  let q = db
    .selectFrom('organization_closures')
    .select(['closed_on as date', 'reason'])
    .where('organization_id', '=', organizationId)
    .where('closed_on', '>=', from);
  if (to !== undefined) q = q.where('closed_on', '<=', to);
  return q.orderBy('closed_on').execute();
}

export async function isClosureDate(
  db: Db,
  organizationId: string,
  date: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('organization_closures')
    .select('closed_on')
    .where('organization_id', '=', organizationId)
    .where('closed_on', '=', date)
    .executeTakeFirst();
  return row !== undefined;
}
