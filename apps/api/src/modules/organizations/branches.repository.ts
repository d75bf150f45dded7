import { randomUUID } from 'node:crypto';
import type { AdminBranch, CreateBranchRequest } from '@qless/contract';
import { sql } from 'kysely';
import { byName, isListed } from '../../core/organizations.repository.js';
import type { Db, OrganizationRow } from '../../db/schema.js';

/** The head of the organization a branch belongs to (itself for a head). */
export function headOf(row: Pick<OrganizationRow, 'id' | 'parent_id'>): string {
  return row.parent_id ?? row.id;
}

/** Every branch of the organization whose head is `headId`, head first, then by name. */
export async function listBranches(db: Db, headId: string): Promise<AdminBranch[]> {
  const rows = await db
    .selectFrom('organizations as o')
    .selectAll('o')
    .select([
      sql<number>`(select count(*)::int from services s where s.organization_id = o.id and s.active)`.as(
        'service_count',
      ),
      sql<number>`(select count(*)::int from users u where u.organization_id = o.id and u.active)`.as(
        'staff_count',
      ),
    ])
    .where((eb) => eb.or([eb('o.id', '=', headId), eb('o.parent_id', '=', headId)]))
    .execute();
  const label = (r: OrganizationRow) => r.branch_name ?? r.city;
  return rows
    .sort(
      (a, b) =>
        Number(a.parent_id !== null) - Number(b.parent_id !== null) || byName(label(a), label(b)),
    )
    .map((row) => toAdminBranch(row, row.service_count, row.staff_count));
}

export function toAdminBranch(row: OrganizationRow, services: number, staff: number): AdminBranch {
  return {
    organization_id: row.id,
    name: row.name,
    branch_name: row.branch_name,
    city: row.city,
    location: row.location,
    latitude: row.latitude,
    longitude: row.longitude,
    head: row.parent_id === null,
    listed: isListed(row),
    services,
    staff,
  };
}

/**
 * A sign-in address for a new branch's row, unique as the column requires: the head's own
 * address with a sub-address ("bank+branch-1a2b3c4d@example.cm"), so anything ever sent to
 * it reaches the organization's mailbox.
 */
function branchEmail(headEmail: string, id: string): string {
  const at = headEmail.lastIndexOf('@');
  const local = headEmail.slice(0, at).split('+')[0] as string;
  return `${local}+branch-${id.slice(0, 8)}@${headEmail.slice(at + 1)}`.slice(0, 254);
}

/**
 * A new branch of the organization headed by `head`: its own name and place; hours, days,
 * time zone, policies, logo, contact and verification as the head's (edited afterwards like
 * any branch's).
 */
export async function insertBranch(
  trx: Db,
  head: OrganizationRow,
  input: CreateBranchRequest,
  now: Date,
): Promise<OrganizationRow> {
  const id = randomUUID();
  return trx
    .insertInto('organizations')
    .values({
      id,
      parent_id: head.id,
      name: head.name,
      category: head.category,
      email: branchEmail(head.email, id),
      public_email: head.public_email,
      image_url: head.image_url,
      time_zone: head.time_zone,
      start_time: head.start_time,
      end_time: head.end_time,
      open_days: head.open_days,
      open_days_confirmed: head.open_days_confirmed,
      verified_at: head.verified_at,
      active: head.active,
      change_cutoff_minutes: head.change_cutoff_minutes,
      queue_grace_early_minutes: head.queue_grace_early_minutes,
      queue_grace_late_minutes: head.queue_grace_late_minutes,
      queue_notify_position: head.queue_notify_position,
      queue_max_recalls: head.queue_max_recalls,
      queue_join_enabled: head.queue_join_enabled,
      queue_join_code: head.queue_join_code,
      queue_transfer_place: head.queue_transfer_place,
      queue_priority_categories: head.queue_priority_categories,
      queue_premium_label: head.queue_premium_label,
      queue_ratio_priority: head.queue_ratio_priority,
      queue_ratio_others: head.queue_ratio_others,
      queue_ageing_ceiling_minutes: head.queue_ageing_ceiling_minutes,
      waitlist_hold_minutes: head.waitlist_hold_minutes,
      branch_name: input.branch_name,
      city: input.city,
      location: input.location,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
