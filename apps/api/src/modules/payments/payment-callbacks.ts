import type { CallbackOutcome } from '@qless/contract';
import { idSchema } from '@qless/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { CallbackInput, PaymentProvider, ProviderEvent } from '../../providers/provider.js';
import type { PaymentStateMachine } from './payment-state-machine.js';
import { findPaymentById, recordPaymentEvent } from './payments.repository.js';

export interface CallbacksDeps {
  db: Kysely<DB>;
  provider: PaymentProvider;
  stateMachine: PaymentStateMachine;
  log: FastifyBaseLogger;
}

export type CallbackResult =
  | { accepted: true; outcome: CallbackOutcome }
  | { accepted: false; reason: 'INVALID_SIGNATURE' | 'MALFORMED' };

/** A provider's HTTP callback, or the simulator's own: verify, then apply. */
export class PaymentCallbacks {
  constructor(private readonly deps: CallbacksDeps) {}

  async handle(input: CallbackInput): Promise<CallbackResult> {
    const { provider, db } = this.deps;
    const parsed = await provider.parseCallback(input);
    if (!parsed.ok) {
      await recordPaymentEvent(db, {
        paymentId: null,
        provider: provider.name,
        source: 'callback',
        signatureValid: parsed.reason !== 'INVALID_SIGNATURE',
        outcome:
          parsed.reason === 'INVALID_SIGNATURE' ? 'rejected_signature' : 'rejected_malformed',
        payload: parsed.raw,
      });
      return { accepted: false, reason: parsed.reason };
    }
    let event = parsed.event;
    if (!provider.capabilities.signedCallbackFields && event.status !== 'PENDING') {
      // The signature proves the sender, not these fields: the final status is re-read
      // from the provider, for the transaction we recorded, before it is applied.
      const stored =
        event.paymentId && idSchema.safeParse(event.paymentId).success
          ? await findPaymentById(db, event.paymentId)
          : undefined;
      const reference = stored?.provider_reference ?? event.providerReference;
      let checked: ProviderEvent | null = null;
      if (reference) {
        try {
          checked = await provider.getStatus(reference);
        } catch (err) {
          this.deps.log.warn({ err }, 'status check after callback failed');
        }
      }
      if (!checked) {
        await recordPaymentEvent(db, {
          paymentId: stored?.id ?? null,
          provider: provider.name,
          source: 'callback',
          signatureValid: true,
          outcome: 'unverified',
          payload: parsed.raw,
        });
        // Not applied: the provider retries, or the reconciler asks it later.
        return { accepted: true, outcome: 'unverified' };
      }
      event = { ...checked, paymentId: stored?.id ?? checked.paymentId ?? event.paymentId };
    }
    const outcome = await this.deps.stateMachine.applyEvent(event, 'callback', parsed.raw);
    return { accepted: true, outcome };
  }
}
