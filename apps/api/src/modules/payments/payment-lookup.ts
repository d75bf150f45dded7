import type { Clock } from '../../clock.js';
import type { Db, PaymentRow } from '../../db/schema.js';
import type { PaymentProvider, ProviderEvent } from '../../providers/provider.js';
import { recordPaymentEvent, saveProviderReference } from './payments.repository.js';

/** Slack around the payment's creation for clocks that differ between us and the provider. */
const WINDOW_SLACK_MS = 5 * 60_000;

/**
 * Finds the provider's transaction for a payment whose collect answer never arrived (the
 * process died, or the answer was lost) and saves its reference. Null when the provider
 * cannot look up or has no such transaction; throws when it cannot answer.
 */
export async function lookUpTransaction(
  deps: { db: Db; clock: Clock; provider: PaymentProvider },
  payment: PaymentRow,
): Promise<ProviderEvent | null> {
  const { db, clock, provider } = deps;
  if (!provider.capabilities.lookupByPaymentId || !provider.findTransaction) return null;
  const found = await provider.findTransaction({
    paymentId: payment.id,
    phone: payment.phone_number,
    amount: payment.amount,
    from: new Date(payment.created_at.getTime() - WINDOW_SLACK_MS),
    to: new Date(clock.now().getTime() + WINDOW_SLACK_MS),
  });
  if (!found?.providerReference || found.paymentId !== payment.id) return null;
  await saveProviderReference(db, payment.id, found.providerReference);
  await recordPaymentEvent(db, {
    paymentId: payment.id,
    provider: provider.name,
    source: 'status_check',
    signatureValid: true,
    outcome: 'found_by_lookup',
    payload: { reference: found.providerReference },
  });
  return found;
}
