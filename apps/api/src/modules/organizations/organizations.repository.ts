import { minutesToWire, type Organization } from '@qless/contract';
import type { Db, OrganizationRow } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';

export function toOrganization(row: OrganizationRow): Organization {
  return {
    organization_id: row.id,
    name: row.name,
    location: row.location,
    city: row.city,
    category: row.category,
    image_url: row.image_url,
    email: row.email,
    time_zone: row.time_zone,
    start_time: minutesToWire(timeToMinutes(row.start_time)),
    end_time: minutesToWire(timeToMinutes(row.end_time)),
  };
}

/**
 * Sorted the way people read names ("Énergie" with the E's), whatever the database's
 * collation: PGlite and many servers compare bytes, which puts accented names last.
 */
export const byName = new Intl.Collator('fr', { sensitivity: 'base', numeric: true }).compare;

export async function listActiveOrganizations(db: Db): Promise<OrganizationRow[]> {
  const rows = await db
    .selectFrom('organizations')
    .selectAll()
    .where('active', '=', true)
    .execute();
  return rows.sort((a, b) => byName(a.name, b.name));
}

export function findActiveOrganization(db: Db, id: string): Promise<OrganizationRow | undefined> {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where('id', '=', id)
    .where('active', '=', true)
    .executeTakeFirst();
}
