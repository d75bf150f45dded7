import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';

/**
 * Counters that route and calls out of order (decision 139): a counter's primary services and
 * the lines it helps, a transfer to a named counter, and a call of a chosen number with a
 * reason from a short list, kept on the record (visit events, the audit log, Insight per
 * clerk, the board's mark).
 */

/** Why a clerk calls a number out of turn: the short list. */
export const CALL_REASONS = ['returning', 'urgent', 'missed_call', 'manager'] as const;
export type CallReason = (typeof CALL_REASONS)[number];

/** POST /api/v1/queue/counters/{id}/call-visit: call this waiting visitor, out of turn. */
export const callVisitRequestSchema = withFieldCodes(
  z.object({ visit_id: idSchema, reason: z.enum(CALL_REASONS) }),
  { visit_id: 'INVALID_ID', reason: 'CALL_REASON_REQUIRED' },
);
export type CallVisitRequest = z.input<typeof callVisitRequestSchema>;

/**
 * POST /api/v1/queue/counters/{id}/transfer: the held visit goes to another service's line
 * (`service_id`), or to a named counter (`counter_id`, its service kept unless `service_id`
 * is given too); at least one of them.
 */
export const transferRequestSchema = withFieldCodes(
  z
    .object({ service_id: idSchema.optional(), counter_id: idSchema.optional() })
    .refine((t) => t.service_id !== undefined || t.counter_id !== undefined, {
      message: 'Say which service or counter to transfer to',
      path: ['service_id'],
    }),
  { service_id: 'INVALID_ID', counter_id: 'INVALID_ID' },
);
export type TransferRequest = z.input<typeof transferRequestSchema>;

/** The services whose lines a counter helps once its own is empty (none by default). */
export const helpServiceIdsSchema = z.array(idSchema).max(50);
