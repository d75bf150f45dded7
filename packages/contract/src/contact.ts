import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';

export const contactRequestSchema = withFieldCodes(
  z.object({
    user_name: z.string().trim().min(1, 'Organization name is required').max(200),
    user_email: z.string().trim().max(254).pipe(z.email('Enter a valid email address')),
    message: z.string().trim().max(5000).optional().default(''),
  }),
  { user_name: 'INVALID_NAME', user_email: 'INVALID_EMAIL', message: 'INVALID_MESSAGE' },
);
export type ContactRequest = z.input<typeof contactRequestSchema>;
export const contactResponseSchema = z.object({ ok: z.literal(true), id: idSchema });
