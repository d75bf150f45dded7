import type { Db } from '../../db/schema.js';

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

/**
 * Keeps a phone's subscription for `about` (the same endpoint again replaces its keys and
 * end). Refuses (returns false) a sixth live phone. Subscriptions ended more than a week ago
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

/** The dedupe key of a message's push to one subscription (its SMS keeps the plain key). */
export function pushDedupeKey(dedupeKey: string, subscriptionId: string): string {
  return `${dedupeKey}:push:${subscriptionId}`;
}

/** The message's own key, from one of its pushes' keys. */
function messageKeyOf(pushKey: string): string {
  return pushKey.slice(0, pushKey.lastIndexOf(':push:'));
}

/**
 * A push was shown on the phone (the service worker said so): it is delivered, and the SMS
 * waiting behind it is not sent (skipped, "delivered by push"). Returns whether an SMS was
 * spared. Said twice (a retried report), the second changes nothing.
 */
export async function recordPushShown(db: Db, outboxId: string, now: Date): Promise<boolean> {
  const push = await db
    .updateTable('outbox')
    .set({ delivered_at: now, delivery: 'delivered' })
    .where('id', '=', outboxId)
    .where('channel', '=', 'push')
    .where('delivered_at', 'is', null)
    .returning('dedupe_key')
    .executeTakeFirst();
  if (!push?.dedupe_key) return false;
  const spared = await db
    .updateTable('outbox')
    .set({ status: 'skipped', last_error: 'delivered by push', next_attempt_at: null })
    .where('dedupe_key', '=', messageKeyOf(push.dedupe_key))
    .where('channel', '=', 'sms')
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .returning('id')
    .executeTakeFirst();
  return spared !== undefined;
}

/**
 * A push that failed for good (its subscription gone, its service refusing): the SMS waiting
 * behind it is due now rather than after the push's wait, unless another phone's push of the
 * same message may still be shown.
 */
export async function hurryFallback(db: Db, pushKey: string, now: Date): Promise<void> {
  const key = messageKeyOf(pushKey);
  const others = await db
    .selectFrom('outbox')
    .select('id')
    .where('dedupe_key', 'like', `${key.replace(/[\\%_]/g, '\\$&')}:push:%`)
    .where('channel', '=', 'push')
    .where('status', 'in', ['pending', 'sent'])
    .where('delivery', 'is', null)
    .executeTakeFirst();
  if (others) return;
  await db
    .updateTable('outbox')
    .set({ next_attempt_at: now })
    .where('dedupe_key', '=', key)
    .where('channel', '=', 'sms')
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .where('next_attempt_at', '>', now)
    .execute();
}
