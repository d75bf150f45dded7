import { type MobileOperator, mobileOperator } from '@qless/contract/core';

export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());

/**
 * The USSD code that opens a pending approval in each operator's menu. The provider's own
 * `ussd_code` is not shown: it named MTN's code for Orange numbers.
 */
const USSD_CODES: Record<MobileOperator, string> = {
  MTN: '*126#',
  ORANGE: '#150#',
};

/** The code the payer of `phone` dials when no prompt came; null when the operator is unknown. */
export function ussdCodeFor(phone: string): string | null {
  const operator = mobileOperator(phone);
  return operator ? USSD_CODES[operator] : null;
}
