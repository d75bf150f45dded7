import {
  type AdminBooking,
  type AdminService,
  formatMinutes,
  minutesToWire,
  type OrganizationDataResponse,
  type OrganizationProfile,
  zonedNow,
} from '@qless/contract';
import {
  byName,
  isListed,
  listClosures,
  maskToOpenDays,
  missingFields,
} from '../../core/organizations.repository.js';
import type { Db, OrganizationRow, ServiceRow } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';

/** Statuses of bookings that are or were real (a customer paid for them). */
const REAL_STATUSES = ['confirmed', 'checked_in', 'no_show'] as const;

const hhmm = (time: string) => formatMinutes(timeToMinutes(time));

export async function toProfile(
  db: Db,
  row: OrganizationRow,
  now: Date,
): Promise<OrganizationProfile> {
  const today = zonedNow(row.time_zone, now).date;
  return {
    organization_id: row.id,
    name: row.name,
    location: row.location,
    city: row.city,
    category: row.category,
    email: row.email,
    public_email: row.public_email,
    image_url: row.image_url,
    time_zone: row.time_zone,
    start_time: minutesToWire(timeToMinutes(row.start_time)),
    end_time: minutesToWire(timeToMinutes(row.end_time)),
    opens_at: hhmm(row.start_time),
    closes_at: hhmm(row.end_time),
    open_days: maskToOpenDays(row.open_days),
    closures: await listClosures(db, row.id, today),
    verified: row.verified_at !== null,
    missing_fields: missingFields(row),
    listed: isListed(row),
    change_cutoff_minutes: row.change_cutoff_minutes,
    waitlist_hold_minutes: row.waitlist_hold_minutes,
  };
}

export function toAdminService(row: ServiceRow): AdminService {
  return {
    service_id: row.id,
    organization_id: row.organization_id,
    service_name: row.name,
    service_description: row.description,
    service_name_fr: row.name_fr,
    service_description_fr: row.description_fr,
    duration: row.duration_minutes,
    capacity: row.capacity,
    active: row.active,
  };
}

/** Every service of the organization, active ones first, then by name. */
export async function listAllServices(db: Db, organizationId: string): Promise<ServiceRow[]> {
  const rows = await db
    .selectFrom('services')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .execute();
  return rows.sort((a, b) => Number(b.active) - Number(a.active) || byName(a.name, b.name));
}

export function findService(db: Db, serviceId: string): Promise<ServiceRow | undefined> {
  return db.selectFrom('services').selectAll().where('id', '=', serviceId).executeTakeFirst();
}

export async function organizationStats(
  db: Db,
  organization: OrganizationRow,
  now: Date,
): Promise<OrganizationDataResponse['stats']> {
  const today = zonedNow(organization.time_zone, now).date;
  const counts = await db
    .selectFrom('organizations as o')
    .select((eb) => [
      eb
        .selectFrom('services')
        .select(eb.fn.countAll<string>().as('n'))
        .where('organization_id', '=', organization.id)
        .where('active', '=', true)
        .as('services'),
      eb
        .selectFrom('bookings')
        .select(eb.fn.countAll<string>().as('n'))
        .where('organization_id', '=', organization.id)
        .where('status', 'in', REAL_STATUSES)
        .as('bookings'),
      eb
        .selectFrom('bookings')
        .select(eb.fn.countAll<string>().as('n'))
        .where('organization_id', '=', organization.id)
        .where('booking_date', '>=', today)
        .where('status', 'in', ['held', 'confirmed'])
        .where('attention_reason', 'is not', null)
        .as('attention'),
    ])
    .where('o.id', '=', organization.id)
    .executeTakeFirstOrThrow();
  const todays = await db
    .selectFrom('bookings as b')
    .innerJoin('services as s', 's.id', 'b.service_id')
    .innerJoin('slots as sl', 'sl.id', 'b.slot_id')
    .select([
      'b.id',
      'b.cus_name',
      's.name as service_name',
      's.name_fr as service_name_fr',
      'sl.start_time',
      'b.status',
    ])
    .where('b.organization_id', '=', organization.id)
    .where('b.booking_date', '=', today)
    .where('b.status', 'in', REAL_STATUSES)
    .orderBy('sl.start_time')
    .orderBy('b.seat')
    .orderBy('b.id')
    .execute();
  return {
    total_services: Number(counts.services ?? 0),
    total_bookings: Number(counts.bookings ?? 0),
    today: todays.map((b) => ({
      booking_id: b.id,
      cus_name: b.cus_name,
      service_name: b.service_name,
      service_name_fr: b.service_name_fr,
      time: hhmm(b.start_time),
      status: b.status,
    })),
    needs_attention: Number(counts.attention ?? 0),
  };
}

export interface BookingsFilter {
  from?: string | undefined;
  to?: string | undefined;
  statuses?: readonly AdminBooking['status'][] | undefined;
  attention?: boolean | undefined;
}

/** One page of an organization's bookings by date, then time, then seat. */
export async function listOrganizationBookings(
  db: Db,
  organizationId: string,
  filter: BookingsFilter,
  page: { page: number; pageSize: number },
): Promise<{ bookings: AdminBooking[]; total: number }> {
  let base = db
    .selectFrom('bookings as b')
    .innerJoin('services as s', 's.id', 'b.service_id')
    .innerJoin('slots as sl', 'sl.id', 'b.slot_id')
    .leftJoin('slots as fs', 'fs.id', 'b.rescheduled_from_slot_id')
    .where('b.organization_id', '=', organizationId);
  if (filter.from !== undefined) base = base.where('b.booking_date', '>=', filter.from);
  if (filter.to !== undefined) base = base.where('b.booking_date', '<=', filter.to);
  base =
    filter.statuses !== undefined && filter.statuses.length > 0
      ? base.where('b.status', 'in', filter.statuses)
      : base.where('b.ticket_code', 'is not', null);
  if (filter.attention === true) base = base.where('b.attention_reason', 'is not', null);
  if (filter.attention === false) base = base.where('b.attention_reason', 'is', null);

  const total = await base
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .select([
      'b.id',
      'b.booking_date',
      'b.slot_id',
      'sl.start_time',
      'b.service_id',
      's.name as service_name',
      's.name_fr as service_name_fr',
      'b.cus_name',
      'b.cus_email',
      'b.phone_number',
      'b.status',
      'b.ticket_code',
      'b.checked_in_at',
      'b.attention_reason',
      'b.cancelled_by',
      'b.rescheduled_from_date',
      'fs.start_time as rescheduled_from_time',
    ])
    .orderBy('b.booking_date')
    .orderBy('sl.start_time')
    .orderBy('b.seat')
    .orderBy('b.id')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  return {
    total: Number(total.n),
    bookings: rows.map((r) => ({
      booking_id: r.id,
      booking_date: r.booking_date,
      slot_id: r.slot_id,
      start_time: minutesToWire(timeToMinutes(r.start_time)),
      time: hhmm(r.start_time),
      service_id: r.service_id,
      service_name: r.service_name,
      service_name_fr: r.service_name_fr,
      cus_name: r.cus_name,
      cus_email: r.cus_email,
      phone_number: r.phone_number,
      status: r.status,
      ticket_code: r.ticket_code,
      checked_in_at: r.checked_in_at?.toISOString() ?? null,
      attention_reason: r.attention_reason,
      cancelled_by: r.status === 'cancelled' ? r.cancelled_by : null,
      rescheduled_from:
        r.rescheduled_from_date && r.rescheduled_from_time
          ? { date: r.rescheduled_from_date, time: hhmm(r.rescheduled_from_time) }
          : null,
    })),
  };
}

export async function upsertClosure(
  db: Db,
  organizationId: string,
  date: string,
  reason: string,
): Promise<void> {
  await db
    .insertInto('organization_closures')
    .values({ organization_id: organizationId, closed_on: date, reason })
    .onConflict((oc) => oc.columns(['organization_id', 'closed_on']).doUpdateSet({ reason }))
    .execute();
}

export async function deleteClosure(db: Db, organizationId: string, date: string): Promise<void> {
  await db
    .deleteFrom('organization_closures')
    .where('organization_id', '=', organizationId)
    .where('closed_on', '=', date)
    .execute();
}
