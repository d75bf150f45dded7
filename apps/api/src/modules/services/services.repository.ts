import type { Service } from '@qless/contract';
import type { Db, OrganizationRow, ServiceRow } from '../../db/schema.js';

export function toService(row: ServiceRow): Service {
  return {
    service_id: row.id,
    service_name: row.name,
    service_description: row.description,
    duration: row.duration_minutes,
    capacity: row.capacity,
    organization_id: row.organization_id,
  };
}

export function listActiveServices(db: Db, organizationId: string): Promise<ServiceRow[]> {
  return db
    .selectFrom('services')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('active', '=', true)
    .orderBy('name')
    .execute();
}

/** An active service of an active organization, with that organization. */
export async function findActiveService(
  db: Db,
  id: string,
): Promise<{ service: ServiceRow; organization: OrganizationRow } | undefined> {
  const service = await db
    .selectFrom('services')
    .selectAll()
    .where('id', '=', id)
    .where('active', '=', true)
    .executeTakeFirst();
  if (!service) return undefined;
  const organization = await db
    .selectFrom('organizations')
    .selectAll()
    .where('id', '=', service.organization_id)
    .where('active', '=', true)
    .executeTakeFirst();
  return organization ? { service, organization } : undefined;
}
