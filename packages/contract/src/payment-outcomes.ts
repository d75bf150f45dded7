/**
 * What the payment state machine reports, as literal unions: a typo in a comparison is a
 * compile error, and payment_events.outcome and the callback route answer only these.
 */
export const PROVIDER_NAMES = ['simulator', 'campay'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** What confirming a paid booking did. */
type ConfirmOutcome = 'confirmed' | 'confirmed_after_hold_lapsed' | 'refund_due';

/** What moving a PENDING payment to a final status did. */
export type SettleOutcome = ConfirmOutcome | 'failed' | 'failed_refund_due';

/** What one provider event (callback or status check) did to its payment. */
export type EventOutcome =
  | SettleOutcome
  | 'still_pending'
  | 'unknown_payment'
  | 'reference_mismatch'
  | 'duplicate'
  | 'amount_mismatch';

/** What an accepted callback did, including one that could not be verified yet. */
export const CALLBACK_OUTCOMES = [
  'confirmed',
  'confirmed_after_hold_lapsed',
  'refund_due',
  'failed',
  'failed_refund_due',
  'still_pending',
  'unknown_payment',
  'reference_mismatch',
  'duplicate',
  'amount_mismatch',
  'unverified',
  // The payment's collect has not returned its reference yet: nothing to ask the provider.
  'awaiting_reference',
  // The provider does not know the reference we recorded: the reconciler deals with it.
  'unknown_at_provider',
] as const satisfies readonly (
  | EventOutcome
  | 'unverified'
  | 'awaiting_reference'
  | 'unknown_at_provider'
)[];
export type CallbackOutcome = (typeof CALLBACK_OUTCOMES)[number];

/** Every outcome stored in payment_events, the rejected callbacks included. */
export type RecordedOutcome =
  | CallbackOutcome
  | 'rejected_signature'
  | 'rejected_malformed'
  | 'collect_refused'
  | 'collect_uncertain'
  | 'found_by_lookup'
  | 'needs_review'
  | 'expired'
  /** Failed because the provider had no transaction for it long after it was started. */
  | 'not_at_provider'
  /** Failed because a newer payment was started for the same number. */
  | 'superseded'
  /** Failed because the customer cancelled it while it was pending. */
  | 'cancelled_by_customer';

/** Where an event came from. */
export type EventSource = 'callback' | 'status_check' | 'expiry' | 'initiation' | 'customer';
