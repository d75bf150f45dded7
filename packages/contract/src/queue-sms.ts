import { z } from 'zod';
import { withFieldCodes } from './errors.js';
import { normalizeCameroonMobile } from './phone.js';

/**
 * Joining from a basic phone (decision 136): the word a branch's visitors text, the day's
 * code the hall shows after it, and the operator's console side of the SMS simulator.
 */

/** A branch's SMS word: a letter, then 2 to 11 letters or digits ("AKWA", "CNPS2"). */
export const SMS_KEYWORD = /^[A-Z][A-Z0-9]{2,11}$/;

/** The words a text starts with to act, never a branch's word (STOP: kept by the operators). */
export const SMS_COMMANDS: readonly string[] = [
  'LEAVE',
  'QUITTER',
  'PARTIR',
  'LATE',
  'RETARD',
  'STOP',
  'HELP',
  'AIDE',
];

/** The branch's word as typed in Queue setup, in its stored form (upper case, no spaces). */
export function normalizeSmsKeyword(typed: string): string {
  return typed
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, '')
    .toUpperCase();
}

/** GET and PUT /api/v1/queue/sms-join (admin): the branch's word and today's message. */
export const smsJoinSettingsSchema = z.object({
  keyword: z.string().nullable(),
  /** The number visitors text (the gateway's), null when none is configured. */
  number: z.string().nullable(),
  /** What a visitor texts today, e.g. "AKWA 417"; null without a word. */
  today: z.string().nullable(),
});
export type SmsJoinSettings = z.infer<typeof smsJoinSettingsSchema>;
export const smsJoinRequestSchema = withFieldCodes(
  z.object({
    keyword: z
      .string()
      .max(40)
      .nullable()
      .transform((v, ctx) => {
        if (v === null || v.trim() === '') return null;
        const word = normalizeSmsKeyword(v);
        if (!SMS_KEYWORD.test(word) || SMS_COMMANDS.includes(word)) {
          ctx.addIssue({ code: 'custom', message: '3 to 12 letters or digits, a letter first' });
          return z.NEVER;
        }
        return word;
      }),
  }),
  { keyword: 'INVALID_SMS_KEYWORD' },
);
export type SmsJoinRequest = z.input<typeof smsJoinRequestSchema>;

/** POST /api/v1/platform/sms/inbound (operator): a text "received" by hand, for a demo. */
export const consoleSmsRequestSchema = withFieldCodes(
  z.object({
    from: z
      .string()
      .max(30)
      .transform((v, ctx) => {
        const phone = normalizeCameroonMobile(v);
        if (!phone) {
          ctx.addIssue({ code: 'custom', message: 'A Cameroonian mobile number' });
          return z.NEVER;
        }
        return phone;
      }),
    text: z.string().trim().min(1).max(480),
  }),
  { from: 'INVALID_PHONE', text: 'INVALID_MESSAGE' },
);
export const consoleSmsResponseSchema = z.object({
  /** What came of it: joined, left, moved_back, refused, help… */
  outcome: z.string(),
  /** The text answered by SMS (also in the outbox), or null. */
  reply: z.string().nullable(),
});
export type ConsoleSmsResponse = z.infer<typeof consoleSmsResponseSchema>;
/** GET /api/v1/platform/sms/inbound (operator): the address to give the SMS gateway. */
export const smsInboundUrlSchema = z.object({ url: z.string() });
