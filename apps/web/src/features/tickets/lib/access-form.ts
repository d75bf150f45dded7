import { normalizeTicketCode } from '@qless/contract/core';

export type AccessFieldError = 'required' | 'invalid';

export type AccessFormResult =
  | { ok: true; code: string; phoneLast4: string }
  | { ok: false; errors: { code?: AccessFieldError; last4?: AccessFieldError } };

/**
 * The "ticket code + last four digits of the phone number" form, checked before any request:
 * the code in any case, with or without its dashes and spaces ("ql 7k4m 2qab xc9d"); exactly
 * four digits, spaces ignored.
 */
export function validateAccessForm(input: { code: string; last4: string }): AccessFormResult {
  const errors: { code?: AccessFieldError; last4?: AccessFieldError } = {};
  const code = normalizeTicketCode(input.code);
  if (!input.code.trim()) errors.code = 'required';
  else if (!code) errors.code = 'invalid';
  const digits = input.last4.replace(/\s/g, '');
  if (!digits) errors.last4 = 'required';
  else if (!/^\d{4}$/.test(digits)) errors.last4 = 'invalid';
  if (errors.code || errors.last4 || !code) return { ok: false, errors };
  return { ok: true, code, phoneLast4: digits };
}
