import { z } from 'zod';
import { isIsoDate } from './time.js';

export const wireTimeSchema = z.object({
  Microseconds: z.number().int().min(0),
  Valid: z.boolean(),
});

export const isoDateSchema = z
  .string()
  .refine(isIsoDate, { message: 'Expected a calendar date as yyyy-MM-dd' });
