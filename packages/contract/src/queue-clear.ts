import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';

/**
 * POST /api/v1/queue/self-joins/clear (staff, decision 125): today's visits joined from the
 * poster that wait and were never called leave the line, those of the last `within_minutes`
 * (all of today's when absent), of one service when named.
 */
export const clearSelfJoinsRequestSchema = withFieldCodes(
  z.object({
    within_minutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .optional(),
    service_id: idSchema.optional(),
  }),
  { within_minutes: 'INVALID_CLEAR_WINDOW', service_id: 'INVALID_ID' },
);
export type ClearSelfJoinsRequest = z.input<typeof clearSelfJoinsRequestSchema>;
export const clearSelfJoinsResponseSchema = z.object({ cleared: z.number().int().min(0) });
export type ClearSelfJoinsResponse = z.infer<typeof clearSelfJoinsResponseSchema>;
