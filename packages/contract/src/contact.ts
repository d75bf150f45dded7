import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';

export const contactRequestSchema = withFieldCodes(
  z.object({
    user_name: z.string().trim().min(1, 'Organization name is required').max(200),
    user_email: z.string().trim().max(254).pipe(z.email('Enter a valid email address')),
    message: z.string().trim().max(5000).optional().default(''),
    /**
     * Who to call back, and on which number (the form once asked for neither). The web
     * form requires both; the API keeps them optional for the spec's client.
     */
    contact_name: z.string().trim().max(100).optional().default(''),
    phone: z
      .string()
      .trim()
      .max(30)
      .refine((v) => v === '' || isPhoneNumber(v), 'A phone number, e.g. 677 12 34 56')
      .optional()
      .default(''),
  }),
  {
    user_name: 'INVALID_NAME',
    user_email: 'INVALID_EMAIL',
    message: 'INVALID_MESSAGE',
    contact_name: 'INVALID_NAME',
    phone: 'INVALID_PHONE',
  },
);

/**
 * A phone number as an organization writes it: a landline or a mobile, with or without the
 * country code, spaces, dots, dashes or brackets; 8 to 15 digits.
 */
export function isPhoneNumber(text: string): boolean {
  if (!/^\+?[\d\s.\-()]+$/.test(text)) return false;
  const digits = text.replace(/\D/g, '').length;
  return digits >= 8 && digits <= 15;
}
export type ContactRequest = z.input<typeof contactRequestSchema>;
export const contactResponseSchema = z.object({ ok: z.literal(true), id: idSchema });
