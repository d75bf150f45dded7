import type { Clock } from '../../core/clock.js';
import type { Db, PaymentRow } from '../../db/schema.js';
import type { PaymentProvider, ProviderEvent } from '../../providers/provider.js';
import { recordPaymentEvent, saveProviderReference } from './payments.repository.js';

/** Slack around the payment's creation for clocks that differ between us and the provider. */
const WINDOW_SLACK_MS = 5 * 60_000;

/**
 * Asks the provider for the transaction of a payment whose collect answer never arrived (the
 * process died, or the answer was lost), by our payment id. Null when the provider cannot
 * look up or has no such transaction; throws when it cannot answer. Only the provider is
 * asked (an HTTP call at Campay): `saveFoundTransaction` records what it found.
 */
/** A transaction the provider found by our payment id: it has its reference. */
export type FoundTransaction = ProviderEvent & { providerReference: string };

export async function findTransaction(
  deps: { clock: Clock; provider: PaymentProvider },
  payment: PaymentRow,
): Promise<FoundTransaction | null> {
  const { clock, provider } = deps;
  if (!provider.capabilities.lookupByPaymentId || !provider.findTransaction) return null;
  const found = await provider.findTransaction({
    paymentId: payment.id,
    phone: payment.phone_number,
    amount: payment.amount,
    from: new Date(payment.created_at.getTime() - WINDOW_SLACK_MS),
    to: new Date(clock.now().getTime() + WINDOW_SLACK_MS),
  });
  const reference = found?.providerReference;
  if (!found || !reference || found.paymentId !== payment.id) return null;
  return { ...found, providerReference: reference };
}

/** Saves the reference of a transaction `findTransaction` found, with an event saying so. */
export async function saveFoundTransaction(
  deps: { db: Db; provider: PaymentProvider },
  payment: PaymentRow,
  found: FoundTransaction,
): Promise<void> {
  await saveProviderReference(deps.db, payment.id, found.providerReference);
  await recordPaymentEvent(deps.db, {
    paymentId: payment.id,
    provider: deps.provider.name,
    source: 'status_check',
    signatureValid: true,
    outcome: 'found_by_lookup',
    payload: { reference: found.providerReference },
  });
}

/** findTransaction, then saveFoundTransaction when it found one. */
export async function lookUpTransaction(
  deps: { db: Db; clock: Clock; provider: PaymentProvider },
  payment: PaymentRow,
): Promise<ProviderEvent | null> {
  const found = await findTransaction(deps, payment);
  if (found) await saveFoundTransaction(deps, payment, found);
  return found;
}
