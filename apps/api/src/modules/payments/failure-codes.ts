import { type PaymentFailureReason, paymentFailureReason } from '@qless/contract';
import type { CollectResult } from '../../providers/provider.js';

/**
 * The failure codes the server itself writes on a FAILED payment (providers add their own:
 * see PAYMENT_FAILURE_REASONS in the contract, which names what each means to the customer).
 */
export const FAILURE_CODES = {
  /** The provider failed the transaction without a code. */
  DECLINED: 'DECLINED',
  /** A success for another amount or currency than ours (refund due). */
  AMOUNT_MISMATCH: 'AMOUNT_MISMATCH',
  /** Still pending at the provider when we gave up waiting. */
  EXPIRED: 'EXPIRED',
  /** The provider could not tell us the outcome when we gave up (flagged for review). */
  OUTCOME_UNKNOWN: 'OUTCOME_UNKNOWN',
  /**
   * Looked up by our payment id, the provider had no transaction for it long after it was
   * started: the collect never reached the provider, so no prompt and no money.
   */
  NOT_AT_PROVIDER: 'NOT_AT_PROVIDER',
  /** A newer payment was started for the same number. */
  SUPERSEDED: 'SUPERSEDED',
  /** The customer cancelled it while it was pending. */
  CANCELLED_BY_CUSTOMER: 'CANCELLED_BY_CUSTOMER',
} as const;

/**
 * The code a payment fails with when the provider refused its collect: the provider's own
 * code when it tells the customer the same thing as our verdict (Campay's ER301 is a
 * refusal), else our verdict (an error code Campay sent with a 401 is still "unavailable").
 */
export function collectFailureCode(result: Extract<CollectResult, { ok: false }>): string {
  const verdict: PaymentFailureReason =
    result.code === 'PROVIDER_UNAVAILABLE' ? 'provider_unavailable' : 'declined';
  const own = result.providerCode;
  return own && paymentFailureReason(own) === verdict ? own : result.code;
}
