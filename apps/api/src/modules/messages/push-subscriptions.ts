import { sql } from 'kysely';
import type { Db } from '../../db/schema.js';

/**
 * When following a booking ends: its day is over in every zone by two days after its date at
 * 00:00 UTC. A reschedule moves it (booking-messages.ts).
 */
export function bookingFollowedUntil(bookingDate: string): Date {
  return new Date(Date.parse(`${bookingDate}T00:00:00Z`) + 2 * 86_400_000);
}

/** A booking moved to another day: its phones follow it there. */
export async function followBookingTo(db: Db, bookingId: string, bookingDate: string) {
  await db
    .updateTable('push_subscriptions')
    .set({ expires_at: bookingFollowedUntil(bookingDate) })
    .where('about', '=', `booking:${bookingId}`)
    .where('gone_at', 'is', null)
    .execute();
}

/** Phones one booking or visit may have subscribed at once (a family shares a ticket). */
export const PUSH_SUBSCRIPTIONS_PER_ABOUT = 5;

/** What a subscription follows, as stored: `booking:{id}` or `visit:{id}`. */
export type PushAboutKey = `booking:${string}` | `visit:${string}`;

/** The subscriptions that may still be pushed to about any of `about`. */
export async function liveSubscriptions(
  db: Db,
  about: readonly PushAboutKey[],
  now: Date,
): Promise<{ id: string }[]> {
  if (about.length === 0) return [];
  return db
    .selectFrom('push_subscriptions')
    .select('id')
    .where('about', 'in', about)
    .where('gone_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at')
    .execute();
}

/** Whether any phone may still be pushed to about any of `about`. */
export async function hasLiveSubscription(
  db: Db,
  about: readonly PushAboutKey[],
  now: Date,
): Promise<boolean> {
  if (about.length === 0) return false;
  const row = await db
    .selectFrom('push_subscriptions')
    .select('id')
    .where('about', 'in', about)
    .where('gone_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Keeps a phone's subscription for `about` (the same endpoint again replaces its keys and
 * end), in the caller's transaction. Refuses (returns false) a sixth live phone. Subscriptions ended more than a week ago
 * are deleted on the way: an endpoint names a device.
 */
export async function saveSubscription(
  db: Db,
  s: {
    about: PushAboutKey;
    endpoint: string;
    p256dh: string;
    auth: string;
    locale: 'en' | 'fr';
    expiresAt: Date;
  },
  now: Date,
): Promise<boolean> {
  // One subscriber of a booking or visit at a time: the count and the insert hold together.
  await sql`select pg_advisory_xact_lock(hashtext(${s.about}))`.execute(db);
  await db
    .deleteFrom('push_subscriptions')
    .where('expires_at', '<', new Date(now.getTime() - 7 * 86_400_000))
    .execute();
  const others = await db
    .selectFrom('push_subscriptions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('about', '=', s.about)
    .where('endpoint', '<>', s.endpoint)
    .where('gone_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  if (Number(others.n) >= PUSH_SUBSCRIPTIONS_PER_ABOUT) return false;
  const row = {
    about: s.about,
    endpoint: s.endpoint,
    p256dh: s.p256dh,
    auth: s.auth,
    locale: s.locale,
    created_at: now,
    expires_at: s.expiresAt,
    gone_at: null,
  };
  await db
    .insertInto('push_subscriptions')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['about', 'endpoint']).doUpdateSet({
        p256dh: row.p256dh,
        auth: row.auth,
        locale: row.locale,
        expires_at: row.expires_at,
        gone_at: null,
      }),
    )
    .execute();
  return true;
}

/**
 * This phone no longer follows `about` (it said "Stop"): its rows are deleted, since an
 * endpoint names a device. A push still queued for it then fails for good and its SMS goes at
 * once.
 */
export async function forgetSubscription(
  db: Db,
  about: readonly PushAboutKey[],
  endpoint: string,
): Promise<void> {
  if (about.length === 0) return;
  await db
    .deleteFrom('push_subscriptions')
    .where('about', 'in', about)
    .where('endpoint', '=', endpoint)
    .execute();
}
