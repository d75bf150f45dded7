import {
  addDays,
  organizationListResponseSchema,
  organizationResponseSchema,
  publicBranchesResponseSchema,
  serviceListResponseSchema,
  serviceResponseSchema,
  slotListResponseSchema,
  takenSlotListResponseSchema,
  zonedNow,
} from '@qless/contract';
import type { AppDeps } from '../../app-deps.js';
import {
  findListedOrganization,
  listClosures,
  listListedBranches,
  listListedOrganizations,
  maskToOpenDays,
  searchListedOrganizations,
  toListedOrganization,
  toOrganization,
} from '../../core/organizations.repository.js';
import { notFound } from '../../errors.js';
import {
  earliestLiveHoldExpiry,
  listSeatsTaken,
  listTakenSlots,
} from '../bookings/bookings.module.js';
import { findListedService, listActiveServices, toService } from '../services/services.module.js';
import { findLiveSlotsOfListedService, toSlot } from '../slots/slots.module.js';
import type { CachedAnswer, ReadCache } from './read-cache.js';

/** Topics sent by migration 010's triggers. */
export const topics = {
  catalog: 'catalog',
  organization: (id: string) => `org:${id}`,
  slots: (serviceId: string) => `slots:${serviceId}`,
  taken: (serviceId: string) => `taken:${serviceId}`,
};

/** A day-long entry around a DST change is refilled this often instead of guessing. */
const UNSURE_MIDNIGHT_MS = 15 * 60_000;

/**
 * The first instant at which the organization's local date is no longer `today`. Computed
 * from the local time of day; checked, and when a zone change makes it doubtful, replaced
 * by a short life.
 */
export function nextLocalMidnight(timeZone: string, now: Date): number {
  const local = zonedNow(timeZone, now);
  const intoMinute = now.getTime() % 60_000;
  const candidate = now.getTime() - intoMinute + (24 * 60 - local.minutes) * 60_000;
  const tomorrow = addDays(local.date, 1);
  const right =
    zonedNow(timeZone, new Date(candidate)).date === tomorrow &&
    zonedNow(timeZone, new Date(candidate - 1)).date === local.date;
  return right ? candidate : now.getTime() + UNSURE_MIDNIGHT_MS;
}

/**
 * The public catalogue's answers as serialized JSON with their ETag, through the read
 * cache. The routes send them; server-side rendering may embed them.
 */
export interface CatalogReads {
  organizations(): Promise<CachedAnswer>;
  searchOrganizations(q: string, page: number, pageSize: number): Promise<CachedAnswer>;
  organization(orgId: string): Promise<CachedAnswer>;
  organizationServices(orgId: string): Promise<CachedAnswer>;
  /** The organization `orgId` belongs to and its listed branches (decision 024). */
  organizationBranches(orgId: string): Promise<CachedAnswer>;
  service(serviceId: string): Promise<CachedAnswer>;
  slots(serviceId: string): Promise<CachedAnswer>;
  /** `start` <= `end` and the range within the contract's limit: the route checks. */
  taken(serviceId: string, start: string, end: string): Promise<CachedAnswer>;
}

export function catalogReads(deps: AppDeps, cache: ReadCache): CatalogReads {
  const { db, clock } = deps;

  async function requireOrganization(orgId: string) {
    const org = await findListedOrganization(db, orgId);
    if (!org) throw notFound('ORGANIZATION_NOT_FOUND', 'No such organization.');
    return org;
  }

  async function requireService(serviceId: string) {
    const found = await findListedService(db, serviceId);
    if (!found) throw notFound('SERVICE_NOT_FOUND', 'No such service.');
    return found;
  }

  return {
    organizations: () =>
      // The spec's client asks with no query and reads the whole list, as it always did.
      cache.read('orgs', organizationListResponseSchema, async () => ({
        value: { organizations: (await listListedOrganizations(db)).map(toListedOrganization) },
        topics: [topics.catalog],
      })),

    searchOrganizations: (q, page, pageSize) =>
      cache.read(`orgs?${page}&${pageSize}&${q}`, organizationListResponseSchema, async () => {
        const { rows, total } = await searchListedOrganizations(db, q, page, pageSize);
        return {
          value: {
            organizations: rows.map(toListedOrganization),
            total,
            page,
            page_size: pageSize,
          },
          topics: [topics.catalog],
          // Pages of the whole list are few; searches are as many as texts anyone types.
          keep: q === '',
        };
      }),

    organization: (orgId) =>
      cache.read(`org:${orgId}`, organizationResponseSchema, async () => ({
        value: { organization: toOrganization(await requireOrganization(orgId)) },
        topics: [topics.organization(orgId)],
      })),

    organizationServices: (orgId) =>
      cache.read(`org:${orgId}/services`, serviceListResponseSchema, async () => {
        const org = await requireOrganization(orgId);
        return {
          value: { services: (await listActiveServices(db, org.id)).map(toService) },
          topics: [topics.organization(org.id)],
        };
      }),

    organizationBranches: (orgId) =>
      cache.read(`org:${orgId}/branches`, publicBranchesResponseSchema, async () => {
        const found = await listListedBranches(db, orgId);
        if (!found) throw notFound('ORGANIZATION_NOT_FOUND', 'No such organization.');
        return {
          value: {
            organization: toOrganization(found.head),
            branches: found.branches.map((b) => ({
              organization_id: b.id,
              branch_name: b.branch_name,
              city: b.city,
              location: b.location,
              latitude: b.latitude,
              longitude: b.longitude,
            })),
          },
          // Every change to any organization row sends `catalog` (migration 010).
          topics: [topics.catalog],
        };
      }),

    service: (serviceId) =>
      cache.read(`service:${serviceId}`, serviceResponseSchema, async () => {
        const { service, organization } = await requireService(serviceId);
        return {
          value: { service: toService(service), organization: toOrganization(organization) },
          topics: [topics.organization(organization.id)],
        };
      }),

    slots: (serviceId) =>
      cache.read(`service:${serviceId}/slots`, slotListResponseSchema, async () => {
        const found = await findLiveSlotsOfListedService(db, serviceId);
        if (!found) throw notFound('SERVICE_NOT_FOUND', 'No such service.');
        // The week view greys out closed days; closures past the horizon cannot be booked
        // anyway. "Today" and the horizon are the organization's, whatever the server's zone.
        const now = clock.now();
        const today = zonedNow(found.timeZone, now).date;
        const bookableUntil = addDays(today, deps.config.payments.horizonDays);
        const closures = await listClosures(db, found.organizationId, today, bookableUntil);
        return {
          value: {
            slots: found.slots.map(toSlot),
            open_days: maskToOpenDays(found.openDays),
            closures: closures.map((c) => c.date),
            today,
            bookable_until: bookableUntil,
          },
          topics: [topics.organization(found.organizationId), topics.slots(serviceId)],
          expiresAt: nextLocalMidnight(found.timeZone, now),
        };
      }),

    taken: (serviceId, start, end) =>
      cache.read(
        `service:${serviceId}/taken?${start}&${end}`,
        takenSlotListResponseSchema,
        async () => {
          const { service, organization } = await requireService(serviceId);
          const now = clock.now();
          const [bookings, seatsTaken, firstLapse] = [
            await listTakenSlots(db, service.id, start, end, now),
            await listSeatsTaken(db, service.id, start, end, now),
            await earliestLiveHoldExpiry(db, service.id, start, end, now),
          ];
          // Weeks a customer can look at are kept; any other range is answered and forgotten.
          const today = zonedNow(organization.time_zone, now).date;
          const keep =
            start >= addDays(today, -7) &&
            end <= addDays(today, deps.config.payments.horizonDays + 7);
          return {
            value: { bookings, seats_taken: seatsTaken },
            topics: [topics.organization(organization.id), topics.taken(service.id)],
            ...(firstLapse ? { expiresAt: firstLapse.getTime() } : {}),
            keep,
          };
        },
      ),
  };
}
