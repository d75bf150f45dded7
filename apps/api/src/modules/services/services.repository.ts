import type { Service } from '@qless/contract';
import { byName, listedCondition } from '../../core/organizations.repository.js';
import type { Db, OrganizationRow, ServiceRow } from '../../db/schema.js';

export function toService(row: ServiceRow): Service {
  return {
    service_id: row.id,
    service_name: row.name,
    service_description: row.description,
    duration: row.duration_minutes,
    capacity: row.capacity,
    organization_id: row.organization_id,
    service_name_fr: row.name_fr,
    service_description_fr: row.description_fr,
  };
}

export async function listActiveServices(db: Db, organizationId: string): Promise<ServiceRow[]> {
  const rows = await db
    .selectFrom('services')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('active', '=', true)
    .execute();
  return rows.sort((a, b) => byName(a.name, b.name));
}

/** An active service of a listed organization, with that organization: one query. */
export async function findListedService(
  db: Db,
  id: string,
): Promise<{ service: ServiceRow; organization: OrganizationRow } | undefined> {
  const row = await db
    .selectFrom('services as s')
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .selectAll('o')
    .select([
      's.id as s_id',
      's.organization_id as s_organization_id',
      's.slug as s_slug',
      's.name as s_name',
      's.description as s_description',
      's.duration_minutes as s_duration_minutes',
      's.capacity as s_capacity',
      's.name_fr as s_name_fr',
      's.description_fr as s_description_fr',
      's.queue_letter as s_queue_letter',
      's.active as s_active',
      's.created_at as s_created_at',
      's.updated_at as s_updated_at',
    ])
    .where('s.id', '=', id)
    .where('s.active', '=', true)
    .where(listedCondition('o'))
    .executeTakeFirst();
  if (!row) return undefined;
  const {
    s_id,
    s_organization_id,
    s_slug,
    s_name,
    s_description,
    s_duration_minutes,
    s_capacity,
    s_name_fr,
    s_description_fr,
    s_queue_letter,
    s_active,
    s_created_at,
    s_updated_at,
    ...organization
  } = row;
  return {
    service: {
      id: s_id,
      organization_id: s_organization_id,
      slug: s_slug,
      name: s_name,
      description: s_description,
      duration_minutes: s_duration_minutes,
      capacity: s_capacity,
      name_fr: s_name_fr,
      queue_letter: s_queue_letter,
      description_fr: s_description_fr,
      active: s_active,
      created_at: s_created_at,
      updated_at: s_updated_at,
    },
    organization,
  };
}
