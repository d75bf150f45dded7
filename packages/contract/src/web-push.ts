import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';

/**
 * Web push (decision 142): "Notify me on this phone" on the ticket page, the visit page and My
 * bookings subscribes the phone for one booking or one visit (and "Stop" unsubscribes it);
 * the service worker shows each
 * push and says so (only that counts as delivered).
 */

/** GET /api/v1/push/key: the server's VAPID public key, null when push is off. */
export const pushKeyResponseSchema = z.object({ publicKey: z.string().nullable() });
export type PushKeyResponse = z.infer<typeof pushKeyResponseSchema>;

/** Bytes a base64url string (padded or not) holds. */
const bytesOf = (s: string) => Math.floor((s.replace(/=+$/, '').length * 3) / 4);
/** A base64url key of exactly `n` bytes (what the payload's encryption needs, RFC 8291). */
const keyOf = (n: number, what: string) =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+=*$/)
    .refine((s) => bytesOf(s) === n, `must be ${what} (${n} bytes, base64url)`);

/** A browser's PushSubscription as JSON (PushSubscription.toJSON()). */
export const browserPushSubscriptionSchema = z.object({
  endpoint: z.url().max(1000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: keyOf(65, 'an uncompressed P-256 public key'),
    auth: keyOf(16, 'the subscription’s auth secret'),
  }),
});

/** What the phone follows: a booking (with its customer key) or a visit (with its key). */
export const pushAboutSchema = z.union([
  z.object({ booking: idSchema }).strict(),
  z.object({ visit: idSchema }).strict(),
]);
export type PushAbout = z.infer<typeof pushAboutSchema>;

/** POST /api/v1/push/subscriptions. */
export const pushSubscribeRequestSchema = withFieldCodes(
  z
    .object({
      about: pushAboutSchema,
      /** The booking's or the visit's key, as its page holds it. */
      key: z.string().min(1).max(100),
      subscription: browserPushSubscriptionSchema,
      locale: z.enum(['en', 'fr']),
    })
    .strict(),
  {
    about: 'PUSH_NOT_FOLLOWED',
    key: 'PUSH_NOT_FOLLOWED',
    subscription: 'INVALID_PUSH_SUBSCRIPTION',
    locale: 'INVALID_LOCALE',
  },
);
export type PushSubscribeRequest = z.infer<typeof pushSubscribeRequestSchema>;

export const pushSubscribeResponseSchema = z.object({
  subscribed: z.literal(true),
  /** When the subscription ends (with the booking's day, or the visit's). */
  expiresAt: z.iso.datetime(),
});

/**
 * POST /api/v1/push/unsubscribe: this phone stops getting news of a booking or visit (its
 * subscription for it is deleted; the SMS then goes as it would without one). Answers 204
 * whether or not the phone was subscribed.
 */
export const pushUnsubscribeRequestSchema = withFieldCodes(
  z
    .object({
      about: pushAboutSchema,
      key: z.string().min(1).max(100),
      endpoint: z.url().max(1000),
    })
    .strict(),
  { about: 'PUSH_NOT_FOLLOWED', key: 'PUSH_NOT_FOLLOWED', endpoint: 'INVALID_PUSH_SUBSCRIPTION' },
);
export type PushUnsubscribeRequest = z.infer<typeof pushUnsubscribeRequestSchema>;

/** POST /api/v1/push/shown: the service worker showed a push. */
export const pushShownRequestSchema = withFieldCodes(
  z.object({ receipt: z.string().min(10).max(120) }).strict(),
  { receipt: 'INVALID_PUSH_RECEIPT' },
);

/** What a push carries to the service worker (encrypted on the way). */
export interface PushPayload {
  title: string;
  body: string;
  /** The page it is about, opened when the notification is tapped. */
  url: string;
  /** Given back to POST /push/shown once the notification is shown. */
  receipt: string;
  /** Replaces an earlier notification with the same tag (one per visit). */
  tag: string;
}
