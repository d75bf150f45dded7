import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';

/**
 * The board on the wall (decision 119): the admin's board links, and what a board
 * reads — counters, the next numbers and the day's latest calls; numbers only, never a name.
 */

/** An instant as the API writes it (ISO 8601). */
const isoInstant = z.string();

/** A board link as the admin sees it; the token itself is shown once, at creation. */
export const boardSchema = z.object({
  board_id: idSchema,
  name: z.string(),
  created_at: isoInstant,
  revoked_at: isoInstant.nullable(),
});
export const boardRequestSchema = withFieldCodes(
  z.object({ name: z.string().trim().min(1).max(60) }),
  { name: 'INVALID_NAME' },
);
export const boardCreatedResponseSchema = z.object({ board: boardSchema, token: z.string() });
export const boardListResponseSchema = z.object({ boards: z.array(boardSchema) });
/** DELETE /api/v1/queue/boards/{id}: the board, revoked (kept, its link dead). */
export const boardResponseSchema = z.object({ board: boardSchema });

/**
 * How long the board's banner shows a call that is still live (decision 119): long enough
 * to walk across a hall, short enough that a banner never points at a call that is over.
 */
export const BOARD_CALL_LIVE_SECONDS = 90;
/** How many of the day's latest calls the board's snapshot carries. */
export const BOARD_RECENT_CALLS = 10;

const boardCallSchema = z.object({
  number: z.string(),
  counter_name: z.string(),
  at: isoInstant,
  /** The call's event id: grows with every call and recall of the day. */
  seq: z.number().int(),
  /** A call out of turn, with a reason on the record (decision 139): the board marks it. */
  out_of_order: z.boolean().optional(),
});

/** GET /api/v1/board/{token} and each message of its socket: numbers only, never a name. */
export const boardSnapshotSchema = z.object({
  organization_name: z.string(),
  server_time: isoInstant,
  serving: z.array(
    z.object({
      counter_name: z.string(),
      number: z.string().nullable(),
      state: z.enum(['called', 'serving']).nullable(),
      /** The counter is paused: the board reads "En pause / Paused" (no number). */
      paused: z.boolean(),
    }),
  ),
  /** The next numbers in calling order (at most 10). */
  next: z.array(z.string()),
  /** The latest call (or recall) of the day, live or over (kept for older readers). */
  last_call: boardCallSchema.nullable(),
  /**
   * The day's latest calls and recalls, newest first (at most BOARD_RECENT_CALLS). The board
   * chimes, shows and says each `seq` it has not seen, oldest first. `live`: the visit is
   * still called at that counter (not started, moved or closed, not recalled since) and the
   * call is under BOARD_CALL_LIVE_SECONDS old; only a live call is shown in the banner.
   */
  calls: z.array(boardCallSchema.extend({ live: z.boolean() })),
});
export type BoardCall = z.infer<typeof boardSnapshotSchema>['calls'][number];
export type BoardSnapshot = z.infer<typeof boardSnapshotSchema>;

/** How long one join code lasts (decision 125): the server also takes the previous one. */
export const JOIN_CODE_WINDOW_SECONDS = 120;

/**
 * GET /api/v1/board/{token}/join-code: the code the board shows in the hall (decision 125);
 * null when the organization does not ask for one or takes no joins from its page. The board
 * asks again at `changes_at` (the end of the code's window).
 */
export const boardJoinCodeSchema = z.object({
  required: z.boolean(),
  code: z
    .string()
    .regex(/^\d{4}$/)
    .nullable(),
  changes_at: isoInstant,
  /**
   * Joining by SMS (decision 136): what to text today and where, e.g. `{ text: "AKWA 417",
   * number: "8080" }`; null when the branch has no word or no number is configured.
   */
  sms: z.object({ text: z.string(), number: z.string() }).nullable().optional(),
});
export type BoardJoinCode = z.infer<typeof boardJoinCodeSchema>;
