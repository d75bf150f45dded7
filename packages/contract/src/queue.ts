import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';
import { normalizeCameroonMobile } from './phone.js';
import { CALL_REASONS, helpServiceIdsSchema } from './queue-routing.js';
import { PRIORITY_CATEGORIES, queueSettingsSchema } from './queue-settings.js';
import { CUSTOMER_LOCALES } from './self-service-codes.js';
import { isoDateSchema } from './time-schemas.js';

/**
 * The same-day queue (decision 020): visits, counters, boards and the customer's
 * turn. Staff routes need a counter session (staff, org_admin, operator); settings, counters
 * and boards are the admin's. The join page, the board and a visitor's own turn are public.
 */

export const VISIT_STATES = [
  'waiting',
  'called',
  'serving',
  'done',
  'no_show',
  'left',
  'transferred',
] as const;
export type VisitState = (typeof VISIT_STATES)[number];
/** States in which a visit is still in the branch today. */
export const OPEN_VISIT_STATES = [
  'waiting',
  'called',
  'serving',
] as const satisfies readonly VisitState[];

export const VISIT_SOURCES = ['booking', 'staff', 'self', 'kiosk', 'sms'] as const;
export type VisitSource = (typeof VISIT_SOURCES)[number];

export const COUNTER_STATES = ['closed', 'open', 'paused'] as const;
export type CounterState = (typeof COUNTER_STATES)[number];

/** What a counter does to the visit it holds (or to the line: call_next). */
export const COUNTER_ACTIONS = [
  'call_next',
  'recall',
  'start',
  'done',
  'no_show',
  'transfer',
  'call_visit',
] as const;
export type CounterAction = (typeof COUNTER_ACTIONS)[number];

/** "A-042": the service's letter and the day's number, said aloud and shown on the board. */
export function formatVisitNumber(letter: string, number: number): string {
  return `${letter}-${String(number).padStart(3, '0')}`;
}

const isoInstant = z.string();
export const optionalPhone = z
  .string()
  .max(30)
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return null;
    const normalized = normalizeCameroonMobile(v);
    if (!normalized) {
      ctx.addIssue({
        code: 'custom',
        message: 'Enter a Cameroonian mobile number: 9 digits starting with 6',
      });
      return z.NEVER;
    }
    return normalized;
  });
const visitorName = z.string().trim().min(1, 'Name is required').max(80);

/** A range of minutes, never one exact minute. */
export const waitEstimateSchema = z.object({
  min_minutes: z.number().int().nonnegative(),
  max_minutes: z.number().int().nonnegative(),
});
export type WaitEstimate = z.infer<typeof waitEstimateSchema>;

/** A visit as staff see it (names and phones: staff only). */

export const queueVisitSchema = z.object({
  visit_id: idSchema,
  number: z.string(),
  service_id: idSchema,
  service_name: z.string(),
  service_name_fr: z.string().nullable(),
  source: z.enum(VISIT_SOURCES),
  state: z.enum(VISIT_STATES),
  customer_name: z.string(),
  phone: z.string().nullable(),
  booking_id: idSchema.nullable(),
  ticket_code: z.string().nullable(),
  slot_start: isoInstant.nullable(),
  arrived_at: isoInstant,
  called_at: isoInstant.nullable(),
  serving_at: isoInstant.nullable(),
  ended_at: isoInstant.nullable(),
  counter_id: idSchema.nullable(),
  counter_name: z.string().nullable(),
  recalls: z.number().int(),
  /** The category served first that the visitor was given (decision 138); null: none. */
  priority_category: z.enum(PRIORITY_CATEGORIES).nullable(),
  /** A transfer to a named counter (decision 139): only it calls the visit while it stands. */
  for_counter_id: idSchema.nullable(),
  /** A call out of order: its reason (decision 139); null for Call next's calls. */
  call_reason: z.enum(CALL_REASONS).nullable(),
  /** 1-based place in its service's line while waiting; null otherwise. */
  position: z.number().int().positive().nullable(),
  estimate: waitEstimateSchema.nullable(),
});
export type QueueVisit = z.infer<typeof queueVisitSchema>;

export const counterSchema = z.object({
  counter_id: idSchema,
  name: z.string(),
  /** Its primary services: its own line. */
  service_ids: z.array(idSchema),
  /** The services whose lines it helps once its own is empty (decision 139). */
  help_service_ids: z.array(idSchema),
  state: z.enum(COUNTER_STATES),
  /** The visit it holds (called or serving), if any. */
  current_visit_id: idSchema.nullable(),
  /**
   * GET /queue/today: the waiting visits this counter calls next, in its own order (the fair
   * order counts each counter's own calls, decision 138).
   */
  calls_next: z.array(idSchema).optional(),
});
export type Counter = z.infer<typeof counterSchema>;

/** GET /api/v1/queue/today (counter session): the organization's queue now. */
export const queueTodayResponseSchema = z.object({
  organization: z.object({ organization_id: idSchema, name: z.string(), time_zone: z.string() }),
  date: isoDateSchema,
  server_time: isoInstant,
  settings: queueSettingsSchema,
  services: z.array(
    z.object({
      service_id: idSchema,
      name: z.string(),
      name_fr: z.string().nullable(),
      /** The letter the admin chose (null: none chosen). */
      letter: z.string().nullable(),
      /**
       * The letter its numbers take: the chosen one, or the one it will be given at its first
       * visit (by creation order, the first no other service takes; null past 26 services).
       */
      planned_letter: z.string().nullable(),
    }),
  ),
  counters: z.array(counterSchema),
  /** Open visits in calling order, then today's ended ones (latest first). */
  visits: z.array(queueVisitSchema),
});
export type QueueTodayResponse = z.infer<typeof queueTodayResponseSchema>;

/** POST /api/v1/queue/visits (counter session): a walk-in added by staff. */
export const walkInRequestSchema = withFieldCodes(
  z.object({
    service_id: idSchema,
    name: visitorName,
    phone: optionalPhone,
    /** The turn by WhatsApp rather than SMS (decision 144): the opt-in, with the number. */
    whatsapp: z.boolean().optional(),
    locale: z.enum(CUSTOMER_LOCALES).optional(),
    /**
     * The 4 digits shown on the board in the hall, when the organization asks for them; a
     * missing, malformed or wrong one is refused 403 JOIN_CODE_INVALID (checked by the server).
     */
    code: z.string().max(40).optional(),
    /** A category the organization serves first (decision 138); refused if not enabled. */
    priority_category: z.enum(PRIORITY_CATEGORIES).nullable().optional(),
  }),
  {
    service_id: 'INVALID_ID',
    name: 'INVALID_NAME',
    phone: 'INVALID_PHONE',
    whatsapp: 'INVALID_WHATSAPP_OPT_IN',
    locale: 'INVALID_LOCALE',
    code: 'JOIN_CODE_INVALID',
    priority_category: 'PRIORITY_CATEGORY_NOT_SERVED',
  },
);
export type WalkInRequest = z.input<typeof walkInRequestSchema>;
export const queueVisitResponseSchema = z.object({ visit: queueVisitSchema });

/** POST /api/v1/queue/counters, PATCH /api/v1/queue/counters/{id} (admin). */
export const counterRequestSchema = withFieldCodes(
  z.object({
    name: z.string().trim().min(1).max(40),
    service_ids: z.array(idSchema).min(1).max(50),
    help_service_ids: helpServiceIdsSchema.optional(),
  }),
  { name: 'INVALID_COUNTER', service_ids: 'INVALID_COUNTER', help_service_ids: 'INVALID_COUNTER' },
);
export const counterPatchSchema = withFieldCodes(
  z.object({
    name: z.string().trim().min(1).max(40).optional(),
    service_ids: z.array(idSchema).min(1).max(50).optional(),
    help_service_ids: helpServiceIdsSchema.optional(),
    /** false retires the counter (kept, never listed again). */
    active: z.boolean().optional(),
  }),
  {
    name: 'INVALID_COUNTER',
    service_ids: 'INVALID_COUNTER',
    help_service_ids: 'INVALID_COUNTER',
    active: 'INVALID_COUNTER',
  },
);
export const counterResponseSchema = z.object({ counter: counterSchema });
export const counterListResponseSchema = z.object({ counters: z.array(counterSchema) });

/** Seconds after a call, no-show, done or transfer during which the counter may undo it. */
export const UNDO_WINDOW_SECONDS = 10;

/**
 * What the counter's last act was and until when it can be undone (call, no-show, done,
 * transfer); absent or null when there is nothing to undo.
 */
export const undoableSchema = z.object({
  kind: z.enum(['call_next', 'no_show', 'done', 'transfer']),
  number: z.string(),
  until: isoInstant,
});
export type Undoable = z.infer<typeof undoableSchema>;

/** The answer of every counter action: the counter and the visit it touched (if any). */
export const counterActionResponseSchema = z.object({
  counter: counterSchema,
  visit: queueVisitSchema.nullable(),
  /** Set after an act the counter may undo for UNDO_WINDOW_SECONDS (decision 118). */
  undo: undoableSchema.nullable().optional(),
});
export type CounterActionResponse = z.infer<typeof counterActionResponseSchema>;

/** The customer's turn (ticket page, walk-in page, My bookings): small, pushed. */
export const visitTurnSchema = z.object({
  visit_id: idSchema,
  number: z.string(),
  state: z.enum(VISIT_STATES),
  organization_name: z.string(),
  service_name: z.string(),
  service_name_fr: z.string().nullable(),
  /** 1-based place while waiting ("You are 4th"); null once called or ended. */
  position: z.number().int().positive().nullable(),
  /** Null once called or ended, and while no counter serving the service is open. */
  estimate: waitEstimateSchema.nullable(),
  /**
   * Whether a counter serving the visit's service is open now: false reads "Counters are not
   * open yet" instead of an estimate.
   */
  counters_open: z.boolean(),
  /** Where to go once called. */
  counter_name: z.string().nullable(),
  called_at: isoInstant.nullable(),
  recalls: z.number().int(),
});
export type VisitTurn = z.infer<typeof visitTurnSchema>;
export const visitTurnResponseSchema = z.object({ turn: visitTurnSchema });

/** GET /api/v1/join/{organizationId}: what the poster's page offers. */
export const joinInfoResponseSchema = z.object({
  organization: z.object({ organization_id: idSchema, name: z.string() }),
  enabled: z.boolean(),
  /** False outside opening hours or on a closed day. */
  open: z.boolean(),
  /** Joining takes the code shown on the board in the hall (decision 125). */
  code_required: z.boolean(),
  /** The turn may be sent by WhatsApp, for those who ask (decision 144). */
  whatsapp: z.boolean(),
  services: z.array(
    z.object({
      service_id: idSchema,
      name: z.string(),
      name_fr: z.string().nullable(),
      waiting: z.number().int().nonnegative(),
      estimate: waitEstimateSchema.nullable(),
      /** Whether a counter serving it is open now (no estimate until one is). */
      counters_open: z.boolean(),
    }),
  ),
});
export type JoinInfoResponse = z.infer<typeof joinInfoResponseSchema>;

/** POST /api/v1/join/{organizationId}: a walk-in joins by themself. */
export const joinRequestSchema = withFieldCodes(
  z.object({
    service_id: idSchema,
    name: visitorName,
    phone: optionalPhone,
    /** The turn by WhatsApp rather than SMS (decision 144): the opt-in, with the number. */
    whatsapp: z.boolean().optional(),
    locale: z.enum(CUSTOMER_LOCALES).optional(),
    /**
     * The 4 digits shown on the board in the hall, when the organization asks for them; a
     * missing, malformed or wrong one is refused 403 JOIN_CODE_INVALID (checked by the server).
     */
    code: z.string().max(40).optional(),
  }),
  {
    service_id: 'INVALID_ID',
    name: 'INVALID_NAME',
    phone: 'INVALID_PHONE',
    whatsapp: 'INVALID_WHATSAPP_OPT_IN',
    locale: 'INVALID_LOCALE',
    code: 'JOIN_CODE_INVALID',
  },
);
export type JoinRequest = z.input<typeof joinRequestSchema>;
/** The visit's own key (like a booking's): it reads this visit's turn, nothing else. */
export const joinResponseSchema = z.object({ turn: visitTurnSchema, key: z.string() });
export type JoinResponse = z.infer<typeof joinResponseSchema>;

/** `?key=` of a visitor's own turn: the visit's key, or its booking's customer key. */
export const visitKeyQuerySchema = withFieldCodes(z.object({ key: z.string().min(10).max(200) }), {
  key: 'INVALID_VISIT_KEY',
});
/** The same, where the key may come in `X-Visit-Key` instead (decision 124). */
export const visitKeyOptionalQuerySchema = withFieldCodes(
  z.object({ key: z.string().min(10).max(200).optional() }),
  { key: 'INVALID_VISIT_KEY' },
);

/**
 * POST /api/v1/visits/{visitId}/leave: the visitor leaves the line. The key
 * travels in the body, never in an address; answered with the turn, now 'left'.
 */
export const visitLeaveRequestSchema = withFieldCodes(
  z.object({ key: z.string().min(10).max(200) }),
  { key: 'INVALID_VISIT_KEY' },
);
export type VisitLeaveRequest = z.input<typeof visitLeaveRequestSchema>;

/**
 * GET /api/v1/visits/{visitId}/feedbackLink?key=: the token of the feedback page's link
 * (`/feedback/{token}`) once the visit is done, for the visit-over page; null before, after
 * its days or for a visit that did not end done.
 */
export const visitFeedbackLinkResponseSchema = z.object({ token: z.string().nullable() });
export type VisitFeedbackLinkResponse = z.infer<typeof visitFeedbackLinkResponseSchema>;

/** PUT /api/v1/queue/services/{serviceId}/letter (admin): the letter of a service's numbers. */
export const serviceLetterRequestSchema = withFieldCodes(
  z.object({ letter: z.string().regex(/^[A-Z]$/, 'One capital letter, A to Z') }),
  { letter: 'INVALID_QUEUE_SETTINGS' },
);
export const serviceLetterResponseSchema = z.object({
  service_id: idSchema,
  letter: z.string(),
});
