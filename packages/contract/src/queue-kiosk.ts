import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';
import { joinInfoResponseSchema, optionalPhone, waitEstimateSchema } from './queue.js';
import { PRIORITY_CATEGORIES } from './queue-settings.js';
import { CUSTOMER_LOCALES } from './self-service-codes.js';

/**
 * The kiosk in the hall and the slip it prints (decision 135): a kiosk link per branch, made
 * and revoked in Queue setup like a board link; what the kiosk reads and the number it issues;
 * the slip a walk-in takes home (from the kiosk or the counter), and the short code on it that
 * opens the visitor's turn on any phone later.
 */

const isoInstant = z.string();

/** The paper of the kiosk's printer: a 58 or 80 mm thermal roll, or an A6 sheet. */
export const KIOSK_PAPERS = ['58mm', '80mm', 'a6'] as const;
export type KioskPaper = (typeof KIOSK_PAPERS)[number];

/** A kiosk link as the admin sees it; the token itself is shown once, at creation. */
export const kioskSchema = z.object({
  kiosk_id: idSchema,
  name: z.string(),
  paper: z.enum(KIOSK_PAPERS),
  created_at: isoInstant,
  revoked_at: isoInstant.nullable(),
});
export type Kiosk = z.infer<typeof kioskSchema>;
export const kioskRequestSchema = withFieldCodes(
  z.object({
    name: z.string().trim().min(1).max(60),
    paper: z.enum(KIOSK_PAPERS).optional(),
  }),
  { name: 'INVALID_NAME', paper: 'INVALID_PAPER' },
);
export const kioskCreatedResponseSchema = z.object({ kiosk: kioskSchema, token: z.string() });
export const kioskListResponseSchema = z.object({ kiosks: z.array(kioskSchema) });
/** DELETE /api/v1/queue/kiosks/{id}: the kiosk, revoked (kept, its link dead). */
export const kioskResponseSchema = z.object({ kiosk: kioskSchema });

/** GET /api/v1/kiosk/{token}: what the kiosk offers now (no visitor's data, ever). */
export const kioskInfoSchema = z.object({
  organization_name: z.string(),
  /** False outside opening hours or on a closed day: the kiosk says so and issues nothing. */
  open: z.boolean(),
  paper: z.enum(KIOSK_PAPERS),
  server_time: isoInstant,
  /** As the join page lists them: each with its line now and the estimate for a newcomer. */
  services: joinInfoResponseSchema.shape.services,
  /** The categories the branch serves first: the kiosk asks (decision 138); empty: no question. */
  priority_categories: z.array(z.enum(PRIORITY_CATEGORIES)),
  /** What the branch calls its premium clients, if it serves them first. */
  premium_label: z.string().nullable(),
});
export type KioskInfo = z.infer<typeof kioskInfoSchema>;

/**
 * The kiosk's own id of one press (a UUID it makes): the same press sent again after a network
 * blink gets the number already issued, never a second one.
 */
const requestId = z.string().regex(/^[A-Za-z0-9-]{8,64}$/);

/** POST /api/v1/kiosk/{token}/visits: a visitor takes a number at the kiosk. */
export const kioskIssueRequestSchema = withFieldCodes(
  z.object({
    service_id: idSchema,
    phone: optionalPhone,
    locale: z.enum(CUSTOMER_LOCALES).optional(),
    request_id: requestId,
    /** The answer to the priority question; refused unless the branch serves it first. */
    priority_category: z.enum(PRIORITY_CATEGORIES).nullable().optional(),
  }),
  {
    service_id: 'INVALID_ID',
    phone: 'INVALID_PHONE',
    locale: 'INVALID_LOCALE',
    request_id: 'INVALID_REQUEST_ID',
    priority_category: 'PRIORITY_CATEGORY_NOT_SERVED',
  },
);
export type KioskIssueRequest = z.input<typeof kioskIssueRequestSchema>;

/**
 * A walk-in's slip, printed at the kiosk or the counter: the number, where and when, the place
 * and estimate at issue, and two ways to follow the turn later — the link in the QR (the visit's
 * key in its fragment) and the short code typed at `follow_url`.
 */
export const visitSlipSchema = z.object({
  visit_id: idSchema,
  number: z.string(),
  organization_name: z.string(),
  service_name: z.string(),
  service_name_fr: z.string().nullable(),
  issued_at: isoInstant,
  time_zone: z.string(),
  position: z.number().int().positive().nullable(),
  estimate: waitEstimateSchema.nullable(),
  counters_open: z.boolean(),
  /** 8 characters, printed as "7K3M-9QXD"; null for a booked visitor (their ticket is theirs). */
  follow_code: z.string().nullable(),
  /** Where the code is typed: `<origin>/f/<code>`. */
  follow_url: z.string().nullable(),
  /** The turn's page with the visit's key in the fragment (the QR). */
  visit_url: z.string(),
});
export type VisitSlip = z.infer<typeof visitSlipSchema>;
export const visitSlipResponseSchema = z.object({ slip: visitSlipSchema });

/** GET /api/v1/follow/{code}: the visit a slip's code opens, with its key. */
export const followResponseSchema = z.object({ visit_id: idSchema, key: z.string() });

/** The follow code's alphabet (Crockford's base 32: no I, L, O, U), 8 of them. */
export const FOLLOW_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const FOLLOW_CODE_LENGTH = 8;

/**
 * A short code of `length` characters of that alphabet as typed (any case, spaces or dashes,
 * O for 0, I or L for 1) in its stored form, or null when it cannot be one: a slip's follow
 * code, a booking's short link (decision 141).
 */
export function normalizeShortCode(typed: string, length: number): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== length) return null;
  for (const c of code) if (!FOLLOW_CODE_ALPHABET.includes(c)) return null;
  return code;
}

export function normalizeFollowCode(typed: string): string | null {
  return normalizeShortCode(typed, FOLLOW_CODE_LENGTH);
}

/** "7K3M9QXD" → "7K3M-9QXD", as printed and said. */
export function formatFollowCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}
