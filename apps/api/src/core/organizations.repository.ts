import {
  categoryTermsFor,
  minutesToWire,
  type Organization,
  PROFILE_REQUIRED_FIELDS,
  type ProfileMissingItem,
  searchWords,
} from '@qless/contract';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { DB, Db, OrganizationRow } from '../db/schema.js';
import { timeToMinutes } from '../db/time-columns.js';
import { notFound } from '../errors.js';

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
    branch_name: row.branch_name,
    parent_id: row.parent_id,
  };
}

/**
 * The name customers and staff read for a place: the organization's, with the branch's in
 * brackets when it has one ("Banque des Hauts Plateaux (Mvan)"), so a ticket, a message or a
 * board says which agency. Brackets, not a dash: they keep an SMS in the GSM alphabet.
 */
export function placeLabel(name: string, branchName: string | null): string {
  return branchName ? `${name} (${branchName})` : name;
}

/** `placeLabel` in SQL, for the organizations row under `alias`. */
export function placeName(alias: string) {
  return sql<string>`${sql.ref(`${alias}.name`)} || coalesce(' (' || ${sql.ref(`${alias}.branch_name`)} || ')', '')`;
}

/** A catalogue entry: the head of an organization with how many listed branches it has. */
export type ListedHead = OrganizationRow & { branch_count: number; branch_cities: string[] };

export function toListedOrganization(row: ListedHead): Organization {
  return {
    ...toOrganization(row),
    branch_count: row.branch_count,
    ...(row.branch_count > 1 ? { branch_cities: row.branch_cities } : {}),
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
  // A branch is listed only while its organization (the head) is active and verified: an
  // operator who suspends an organization suspends every branch of it (decision 024).
  const headLive = sql`(${col('parent_id')} is null or exists (select 1 from organizations h where h.id = ${col('parent_id')} and h.active and h.verified_at is not null))`;
  return sql<SqlBool>`(${col('active')} and ${col('verified_at')} is not null and ${col('open_days_confirmed')} and ${sql.join(filled, sql` and `)} and ${headLive})`;
}

/** Listed branches of the head `alias` (itself included): their count and their cities. */
function branchFacts(alias: string) {
  const head = sql.ref(`${alias}.id`);
  return [
    sql<number>`(select count(*)::int from organizations b where (b.id = ${head} or b.parent_id = ${head}) and ${listedCondition('b')})`.as(
      'branch_count',
    ),
    sql<
      string[]
    >`(select coalesce(array_agg(distinct b.city), '{}') from organizations b where (b.id = ${head} or b.parent_id = ${head}) and ${listedCondition('b')})`.as(
      'branch_cities',
    ),
  ] as const;
}

/**
 * Sorted the way people read names ("Énergie" with the E's), whatever the database's
 * collation: PGlite and many servers compare bytes, which puts accented names last.
 */
export const byName = new Intl.Collator('fr', { sensitivity: 'base', numeric: true }).compare;

/** The catalogue: each listed organization once (its head), with its branches counted. */
export async function listListedOrganizations(db: Db): Promise<ListedHead[]> {
  const rows = await db
    .selectFrom('organizations as o')
    .selectAll('o')
    .select(branchFacts('o'))
    .where('o.parent_id', 'is', null)
    .where(listedCondition('o'))
    .execute();
  return rows.sort((a, b) => byName(a.name, b.name));
}

/** The listed branches of the organization `id` belongs to (its head first), or undefined. */
export async function listListedBranches(
  db: Db,
  id: string,
): Promise<{ head: OrganizationRow; branches: OrganizationRow[] } | undefined> {
  const of = await db
    .selectFrom('organizations')
    .select(['id', 'parent_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!of) return undefined;
  const headId = of.parent_id ?? of.id;
  const head = await findListedOrganization(db, headId);
  if (!head) return undefined;
  const rows = await db
    .selectFrom('organizations as o')
    .selectAll('o')
    .where((eb) => eb.or([eb('o.id', '=', headId), eb('o.parent_id', '=', headId)]))
    .where(listedCondition('o'))
    .execute();
  const label = (r: OrganizationRow) => `${r.city} ${r.branch_name ?? ''}`;
  return { head, branches: rows.sort((a, b) => byName(label(a), label(b))) };
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
): Promise<{ rows: ListedHead[]; total: number }> {
  const words = searchWords(query);
  // An organization is found by its own name, city or category, or by a city of one of its
  // listed branches ("Akwa" finds the bank with an agency there); it is listed once.
  const matches = (eb: ExpressionBuilder<DB & { o: DB['organizations'] }, 'o'>) =>
    eb.and(
      words.map((word) =>
        eb.or([
          eb('o.search_text', 'like', containsPattern(word)),
          ...categoryTermsFor(word).map((term) =>
            eb('o.search_category', 'like', containsPattern(term)),
          ),
          eb.exists(
            eb
              .selectFrom('organizations as b')
              .select(sql`1`.as('one'))
              .whereRef('b.parent_id', '=', 'o.id')
              .where('b.search_text', 'like', containsPattern(word))
              .where(listedCondition('b')),
          ),
        ]),
      ),
    );
  const base = db
    .selectFrom('organizations as o')
    .where('o.parent_id', 'is', null)
    .where(listedCondition('o'))
    .where((eb) => matches(eb));
  const counted = await base
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .selectAll('o')
    .select(branchFacts('o'))
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

/** `findOrganization`, or 404 ORGANIZATION_NOT_FOUND. */
export async function requireOrganization(db: Db, id: string): Promise<OrganizationRow> {
  const org = await findOrganization(db, id);
  if (!org) throw notFound('ORGANIZATION_NOT_FOUND', 'No such organization.');
  return org;
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
