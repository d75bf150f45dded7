import { normalizeCameroonMobile, PHONE_PREFIX } from '@qless/contract/core';

/**
 * The customer types the 9-digit local number (spaces allowed); we send "+237" + digits.
 * Returns null when it is not 9 digits starting with 6, before any request is made.
 */
export function toPaymentPhone(input: string): string | null {
  const compact = input.replace(/[\s.\-()]/g, '');
  if (!/^6\d{8}$/.test(compact)) {
    // Also accept a number pasted with its country code.
    const normalized = normalizeCameroonMobile(input);
    return normalized?.startsWith(PHONE_PREFIX) ? normalized : null;
  }
  return `${PHONE_PREFIX}${compact}`;
}

/** "677 123 456" for display. */
export function formatLocalPhone(e164OrLocal: string): string {
  const digits = e164OrLocal.replace(/\D/g, '').replace(/^237(?=\d{9}$)/, '');
  return digits.length === 9
    ? `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`
    : e164OrLocal;
}

export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
