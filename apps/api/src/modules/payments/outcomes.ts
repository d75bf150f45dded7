/**
 * Every outcome the payment state machine and its callers report, as literal unions: a
 * typo in a comparison is a compile error, and payment_events.outcome holds only these.
 */

/** What confirming a paid booking did. */
export type ConfirmOutcome = 'confirmed' | 'confirmed_after_hold_lapsed' | 'refund_due';

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

/** What a received callback did, including the ones never applied. */
export type CallbackOutcome =
  | EventOutcome
  | 'rejected_signature'
  | 'rejected_malformed'
  | 'unverified';

/** Every outcome stored in payment_events. */
export type RecordedOutcome = CallbackOutcome | 'collect_refused' | 'expired';

/** Where an event came from. */
export type EventSource = 'callback' | 'status_check' | 'expiry';
