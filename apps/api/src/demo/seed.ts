import type { Role } from '@qless/contract';
import { ACTIVE_BOOKING_STATUSES, addDays, weekStart, zonedNow } from '@qless/contract';
import type { Insertable, Kysely } from 'kysely';
import { hashPassword } from '../core/access/passwords.js';
import { findUserByEmail, insertUser } from '../core/access/users.repository.js';
import { isOpenOn, openDaysToMask } from '../core/organizations.repository.js';
import type { DB, Db } from '../db/schema.js';
import { syncServiceSlots } from '../modules/slots/slots.module.js';
import { generateTicketCode } from '../modules/tickets/tickets.module.js';
import {
  demoBookingCustomers,
  demoOpenDays,
  type SeedOrganization,
  seedOrganizations,
} from './seed-data.js';

export interface SeedResult {
  organizations: number;
  services: number;
  bookingsAdded: number;
  accountsAdded: number;
}

/** The password of every demo account (docs/using-qless.md, "Demo data"). Demo data only. */
export const DEMO_PASSWORD = 'qless-demo-2026';
export const DEMO_OPERATOR_EMAIL = 'operator@qless.demo';
export const demoAdminEmail = (slug: string) => `admin@${slug}.demo`;
export const demoStaffEmail = (slug: string) => `staff@${slug}.demo`;
export const demoManagerEmail = (slug: string) => `manager@${slug}.demo`;

/** Every demo place: each organization, then its other branches (after it, so it exists). */
function seedPlaces(): (SeedOrganization & { parentSlug?: string })[] {
  return seedOrganizations.flatMap((org) => [
    org,
    ...(org.branches ?? []).map((b) => ({
      ...org,
      ...b,
      parentSlug: org.slug,
      branches: undefined,
    })),
  ]);
}

/**
 * Adds the demo accounts that are missing; one that exists is left as it is (its password
 * may have been changed). The one hash is shared: every demo account has the same password.
 */
async function seedAccounts(
  db: Db,
  accounts: {
    email: string;
    name: string;
    role: Role;
    organizationId: string | null;
  }[],
  now: Date,
): Promise<number> {
  let hash: string | null = null;
  let added = 0;
  for (const account of accounts) {
    if (await findUserByEmail(db, account.email)) continue;
    hash ??= await hashPassword(DEMO_PASSWORD);
    await insertUser(db, { ...account, passwordHash: hash, now });
    added += 1;
  }
  return added;
}

/**
 * A service seeded before: a demo database seeded before the French texts existed gets them;
 * a French text an admin has written since is kept.
 */
async function existingService(
  trx: Db,
  organizationId: string,
  svc: SeedOrganization['services'][number],
): Promise<{ id: string; capacity: number }> {
  await trx
    .updateTable('services')
    .set((eb) => ({
      name_fr: eb.fn.coalesce('name_fr', eb.val(svc.nameFr)),
      description_fr: eb.fn.coalesce('description_fr', eb.val(svc.descriptionFr)),
    }))
    .where('organization_id', '=', organizationId)
    .where('slug', '=', svc.slug)
    .where((eb) => eb.or([eb('name_fr', 'is', null), eb('description_fr', 'is', null)]))
    .execute();
  return trx
    .selectFrom('services')
    .select(['id', 'capacity'])
    .where('organization_id', '=', organizationId)
    .where('slug', '=', svc.slug)
    .executeTakeFirstOrThrow();
}

/**
 * Demo data, idempotent: organizations and services are inserted once by slug (later edits
 * by admins are kept), slots are regenerated, and a few confirmed bookings are spread over
 * the current week so the slot view shows taken slots.
 */
export async function seedDemo(db: Kysely<DB>, now: Date, timeZone: string): Promise<SeedResult> {
  return db.transaction().execute(async (trx) => {
    let services = 0;
    let bookingsAdded = 0;
    const accounts: Parameters<typeof seedAccounts>[1] = [
      { email: DEMO_OPERATOR_EMAIL, name: 'Demo operator', role: 'operator', organizationId: null },
    ];
    for (const org of seedPlaces()) {
      const parent = org.parentSlug
        ? await trx
            .selectFrom('organizations')
            .select('id')
            .where('slug', '=', org.parentSlug)
            .executeTakeFirstOrThrow()
        : null;
      await trx
        .insertInto('organizations')
        .values({
          parent_id: parent?.id ?? null,
          branch_name: org.branchName ?? null,
          latitude: org.latitude ?? null,
          longitude: org.longitude ?? null,
          slug: org.slug,
          name: org.name,
          category: org.category,
          city: org.city,
          location: org.location,
          email: org.email,
          // The demo's addresses are made-up contact addresses, not any account's sign-in.
          public_email: org.email,
          time_zone: timeZone,
          image_url: `/media/logos/${org.logo}`,
          start_time: `${org.startTime}:00`,
          end_time: `${org.endTime}:00`,
          open_days: openDaysToMask(demoOpenDays(org.category)),
          // Demo organizations are public from the start, as if an operator had verified them.
          verified_at: now,
        })
        .onConflict((oc) => oc.column('slug').doNothing())
        .execute();
      // A demo database seeded when every place opened seven days (the column's default)
      // gets its bank's week; days an admin has chosen since are kept.
      await trx
        .updateTable('organizations')
        .set({ open_days: openDaysToMask(demoOpenDays(org.category)) })
        .where('slug', '=', org.slug)
        .where('open_days', '=', openDaysToMask([0, 1, 2, 3, 4, 5, 6]))
        .execute();
      // A demo database seeded before verification existed gets its organizations listed.
      await trx
        .updateTable('organizations')
        .set({ verified_at: now })
        .where('slug', '=', org.slug)
        .where('verified_at', 'is', null)
        .execute();
      const orgRow = await trx
        .selectFrom('organizations')
        .select(['id', 'time_zone', 'open_days'])
        .where('slug', '=', org.slug)
        .executeTakeFirstOrThrow();
      accounts.push(
        // A branch has a manager; the organization (its head) an admin over every branch.
        parent
          ? {
              email: demoManagerEmail(org.slug),
              name: 'Demo branch manager',
              role: 'branch_manager',
              organizationId: orgRow.id,
            }
          : {
              email: demoAdminEmail(org.slug),
              name: 'Demo admin',
              role: 'org_admin',
              organizationId: orgRow.id,
            },
        {
          email: demoStaffEmail(org.slug),
          name: 'Demo staff',
          role: 'staff',
          organizationId: orgRow.id,
        },
      );
      const today = zonedNow(orgRow.time_zone, now).date;
      const sunday = weekStart(today);

      for (const [serviceIndex, svc] of org.services.entries()) {
        // A fresh service comes back from its insert; one seeded before is read (below).
        const inserted = await trx
          .insertInto('services')
          .values({
            organization_id: orgRow.id,
            slug: svc.slug,
            name: svc.name,
            description: svc.description,
            duration_minutes: svc.durationMinutes,
            capacity: svc.capacity,
            name_fr: svc.nameFr,
            description_fr: svc.descriptionFr,
            // One after the other (one transaction has one now()): the queue's letters,
            // planned by creation order (decision 119), follow the list: A, B, C…
            created_at: new Date(now.getTime() + serviceIndex),
          })
          .onConflict((oc) => oc.columns(['organization_id', 'slug']).doNothing())
          .returning(['id', 'capacity'])
          .executeTakeFirst();
        const serviceRow = inserted ?? (await existingService(trx, orgRow.id, svc));
        services += 1;
        await syncServiceSlots(trx, serviceRow.id, now);
        const slots = await trx
          .selectFrom('slots')
          .select('id')
          .where('service_id', '=', serviceRow.id)
          .where('retired_at', 'is', null)
          .orderBy('start_time')
          .execute();
        if (slots.length === 0) continue;
        // A deterministic pattern: the same week seeded twice gets the same bookings.
        const bookings: Insertable<DB['bookings']>[] = [];
        for (let day = 0; day < 7; day += 1) {
          if ((serviceIndex + day) % 2 !== 0) continue;
          // Never a booking on a day the place is closed (a bank's weekend).
          if (!isOpenOn(orgRow.open_days, day)) continue;
          for (const k of [0, 1]) {
            const slot = slots[(serviceIndex * 3 + day * 5 + k * 7) % slots.length];
            if (!slot) continue;
            const customer =
              demoBookingCustomers[(serviceIndex + day + k) % demoBookingCustomers.length];
            if (!customer) continue;
            // Fill every seat so the slot shows as taken.
            for (let seat = 1; seat <= serviceRow.capacity; seat += 1) {
              bookings.push({
                organization_id: orgRow.id,
                service_id: serviceRow.id,
                slot_id: slot.id,
                booking_date: addDays(sunday, day),
                seat,
                status: 'confirmed',
                hold_expires_at: null,
                cus_name: customer.name,
                cus_email: customer.email,
                phone_number: customer.phone,
                ticket_code: generateTicketCode(),
                confirmed_at: now,
              });
            }
          }
        }
        if (bookings.length === 0) continue;
        // One statement a service (a seat already taken, by an earlier seed or by the same
        // slot drawn twice, is passed over): the seed ran about 1,900 statements, 700 now.
        const added = await trx
          .insertInto('bookings')
          .values(bookings)
          .onConflict((oc) =>
            oc
              .columns(['slot_id', 'booking_date', 'seat'])
              .where('status', 'in', ACTIVE_BOOKING_STATUSES)
              .doNothing(),
          )
          .executeTakeFirst();
        bookingsAdded += Number(added.numInsertedOrUpdatedRows ?? 0n);
      }
    }
    const accountsAdded = await seedAccounts(trx, accounts, now);
    return { organizations: seedPlaces().length, services, bookingsAdded, accountsAdded };
  });
}
