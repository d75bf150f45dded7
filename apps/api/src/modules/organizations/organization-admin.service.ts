import {
  type AdminService,
  type Closure,
  type createServiceRequestSchema,
  daysBetween,
  isValidTimeZone,
  type OrganizationProfile,
  parseTimeOfDay,
  type updateProfileRequestSchema,
  type updateServiceRequestSchema,
  zonedNow,
} from '@qless/contract';
import type { Kysely, Updateable } from 'kysely';
import type { z } from 'zod';
import type { AuthContext } from '../../core/access/auth-guard.js';
import { assertOrganizationAccess } from '../../core/access/roles.js';
import type { Clock } from '../../core/clock.js';
import { listClosures, openDaysToMask } from '../../core/organizations.repository.js';
import type { DB, Db, OrganizationRow } from '../../db/schema.js';
import { minutesToTime, timeToMinutes } from '../../db/time-columns.js';
import { AppError, notFound } from '../../errors.js';
import { refreshAttention } from '../bookings/bookings.module.js';
import { syncOrganizationSlots, syncServiceSlots } from '../slots/slots.module.js';
import { findUpload, uploadNameOf, uploadUrl } from '../uploads/uploads.module.js';
import {
  deleteClosure,
  toAdminService,
  toProfile,
  upsertClosure,
} from './organization-admin.repository.js';

type ProfileInput = z.output<typeof updateProfileRequestSchema>;
type CreateServiceInput = z.output<typeof createServiceRequestSchema>;
type UpdateServiceInput = z.output<typeof updateServiceRequestSchema>;

/** How far ahead a closure may be set (two years): further is a typo, not a holiday. */
const MAX_CLOSURE_DAYS_AHEAD = 731;

const organizationNotFound = () => notFound('ORGANIZATION_NOT_FOUND', 'No such organization.');

/** A French text left empty means "use the English one": stored as null. */
const optionalText = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null || value === '' ? null : value;

/**
 * What an organization's admin (or an operator) changes about it. Every change to its
 * week runs in one transaction with the slot regeneration and the re-flagging of the
 * bookings it no longer holds (see refreshAttention): bookings are never dropped.
 */
export class OrganizationAdmin {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly publicOrigin: string,
  ) {}

  private async lockOrganization(trx: Db, organizationId: string): Promise<OrganizationRow> {
    const row = await trx
      .selectFrom('organizations')
      .selectAll()
      .where('id', '=', organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw organizationNotFound();
    return row;
  }

  async updateProfile(
    organizationId: string,
    input: ProfileInput,
  ): Promise<{ organizationData: OrganizationProfile; flagged_bookings: number }> {
    const start = parseTimeOfDay(input.start_time);
    const end = parseTimeOfDay(input.end_time);
    if (start === null || end === null) {
      // The schema took the form; only seconds other than :00 get here.
      throw new AppError(400, 'INVALID_TIME', 'Times are whole minutes, e.g. 08:00 or 08:00:00.');
    }
    if (end <= start) {
      throw new AppError(400, 'INVALID_HOURS', 'The closing time must be after the opening time.');
    }
    let timeZone: string | undefined;
    if (input.time_zone !== undefined) {
      if (!isValidTimeZone(input.time_zone)) {
        throw new AppError(
          400,
          'INVALID_TIME_ZONE',
          'Unknown time zone; use an IANA name such as Africa/Douala.',
        );
      }
      timeZone = new Intl.DateTimeFormat('en', { timeZone: input.time_zone }).resolvedOptions()
        .timeZone;
    }
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const current = await this.lockOrganization(trx, organizationId);
      const changes: Updateable<DB['organizations']> = {
        name: input.name,
        start_time: minutesToTime(start),
        end_time: minutesToTime(end),
        updated_at: now,
      };
      // `email` is the organization's identity: accepted (the spec's client sends it), never changed.
      // Only an address the admin typed here is published: the sign-in e-mail is not, unless
      // chosen (decision 018).
      if (input.public_email !== undefined) {
        changes.public_email = input.public_email ? input.public_email : null;
      }
      if (input.location !== undefined) changes.location = input.location;
      if (input.city !== undefined) changes.city = input.city;
      if (input.category !== undefined) changes.category = input.category;
      if (timeZone !== undefined) changes.time_zone = timeZone;
      if (input.open_days !== undefined) {
        changes.open_days = openDaysToMask(input.open_days);
        // Saving the days is the admin's confirmation of them.
        changes.open_days_confirmed = true;
      }
      if (input.change_cutoff_minutes !== undefined) {
        changes.change_cutoff_minutes = input.change_cutoff_minutes;
      }
      if (input.waitlist_hold_minutes !== undefined) {
        changes.waitlist_hold_minutes = input.waitlist_hold_minutes;
      }
      if (input.image_url !== undefined) {
        changes.image_url = await this.logoUrl(trx, current, input.image_url);
      }
      // Branches (decision 024): the organization's name, category and logo are the head's.
      // A branch keeps them (its manager cannot rename the bank in customers' tickets and
      // messages); the head's change reaches every branch at once.
      if (current.parent_id !== null) {
        delete changes.name;
        delete changes.category;
        delete changes.image_url;
      }
      const updated = await trx
        .updateTable('organizations')
        .set(changes)
        .where('id', '=', organizationId)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (current.parent_id === null) {
        await trx
          .updateTable('organizations')
          .set({
            name: updated.name,
            category: updated.category,
            image_url: updated.image_url,
            updated_at: now,
          })
          .where('parent_id', '=', organizationId)
          .execute();
      }
      const hoursChanged =
        timeToMinutes(current.start_time) !== start || timeToMinutes(current.end_time) !== end;
      if (hoursChanged) await syncOrganizationSlots(trx, organizationId, now);
      const flagged = await refreshAttention(trx, organizationId, now);
      return { organizationData: await toProfile(trx, updated, now), flagged_bookings: flagged };
    });
  }

  /**
   * Only a URL we answered for an upload of this very organization (or the logo it already
   * has, or none): a profile must not point customers' browsers anywhere else.
   */
  private async logoUrl(
    trx: Db,
    current: OrganizationRow,
    requested: string | null,
  ): Promise<string | null> {
    const url = requested?.trim() ?? '';
    if (url === '') return null;
    if (url === current.image_url) return current.image_url;
    const name = uploadNameOf(this.publicOrigin, url);
    const upload = name ? await findUpload(trx, name) : undefined;
    if (!name || !upload || upload.organization_id !== current.id) {
      throw new AppError(
        400,
        'INVALID_IMAGE_URL',
        'Upload the logo here first; only its address can be used.',
      );
    }
    return uploadUrl(this.publicOrigin, name);
  }

  async createService(
    organizationId: string,
    input: CreateServiceInput,
  ): Promise<{ service: AdminService; flagged_bookings: number }> {
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      await this.lockOrganization(trx, organizationId);
      const row = await trx
        .insertInto('services')
        .values({
          organization_id: organizationId,
          name: input.service_name,
          description: input.service_description,
          name_fr: optionalText(input.service_name_fr) ?? null,
          description_fr: optionalText(input.service_description_fr) ?? null,
          duration_minutes: input.duration,
          capacity: input.capacity ?? 1,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await syncServiceSlots(trx, row.id, now);
      return { service: toAdminService(row), flagged_bookings: 0 };
    });
  }

  async updateService(
    auth: AuthContext,
    serviceId: string,
    input: UpdateServiceInput,
  ): Promise<{ service: AdminService; flagged_bookings: number }> {
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('services')
        .selectAll()
        .where('id', '=', serviceId)
        .forUpdate()
        .executeTakeFirst();
      if (!current) throw notFound('SERVICE_NOT_FOUND', 'No such service.');
      assertOrganizationAccess(auth, current.organization_id);
      const changes: Updateable<DB['services']> = { updated_at: now };
      if (input.service_name !== undefined) changes.name = input.service_name;
      if (input.service_description !== undefined) changes.description = input.service_description;
      const nameFr = optionalText(input.service_name_fr);
      if (nameFr !== undefined) changes.name_fr = nameFr;
      const descriptionFr = optionalText(input.service_description_fr);
      if (descriptionFr !== undefined) changes.description_fr = descriptionFr;
      if (input.duration !== undefined) changes.duration_minutes = input.duration;
      if (input.capacity !== undefined) changes.capacity = input.capacity;
      if (input.active !== undefined) changes.active = input.active;
      const updated = await trx
        .updateTable('services')
        .set(changes)
        .where('id', '=', serviceId)
        .returningAll()
        .executeTakeFirstOrThrow();
      // Deactivating retires its slots (no new bookings); reactivating revives them.
      if (
        updated.duration_minutes !== current.duration_minutes ||
        updated.active !== current.active
      ) {
        await syncServiceSlots(trx, serviceId, now);
      }
      const flagged = await refreshAttention(trx, current.organization_id, now);
      return { service: toAdminService(updated), flagged_bookings: flagged };
    });
  }

  async addClosure(
    organizationId: string,
    date: string,
    reason: string,
  ): Promise<{ closures: Closure[]; flagged_bookings: number }> {
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const org = await this.lockOrganization(trx, organizationId);
      const today = zonedNow(org.time_zone, now).date;
      if (date < today) {
        throw new AppError(400, 'INVALID_DATE', 'This date has passed; choose today or later.');
      }
      if (daysBetween(today, date) > MAX_CLOSURE_DAYS_AHEAD) {
        throw new AppError(400, 'INVALID_DATE', 'Closures can be set up to two years ahead.');
      }
      await upsertClosure(trx, organizationId, date, reason);
      const flagged = await refreshAttention(trx, organizationId, now);
      return {
        closures: await listClosures(trx, organizationId, today),
        flagged_bookings: flagged,
      };
    });
  }

  /** Idempotent: removing a closure that is not there changes nothing. */
  async removeClosure(
    organizationId: string,
    date: string,
  ): Promise<{ closures: Closure[]; flagged_bookings: number }> {
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const org = await this.lockOrganization(trx, organizationId);
      await deleteClosure(trx, organizationId, date);
      const flagged = await refreshAttention(trx, organizationId, now);
      const today = zonedNow(org.time_zone, now).date;
      return {
        closures: await listClosures(trx, organizationId, today),
        flagged_bookings: flagged,
      };
    });
  }
}
