import { z } from 'zod';
import { ERROR_CODES, type ErrorBody } from './error-codes.js';

export const errorBodySchema: z.ZodType<ErrorBody> = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** Per-field problems for VALIDATION_FAILED. */
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
