import type { CallbackOutcome, RecordedOutcome } from '@qless/contract';
import { idSchema } from '@qless/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { DB, PaymentRow } from '../../db/schema.js';
import { hasLoneSurrogate, storableText } from '../../db/storable.js';
import type { Limiter } from '../../limits/limiter.js';
import {
  type CallbackInput,
  type PaymentProvider,
  type ProviderEvent,
  TransactionNotFoundError,
} from '../../providers/provider.js';
import { lookUpTransaction } from './payment-lookup.js';
import type { PaymentStateMachine } from './payment-state-machine.js';
import {
  findPaymentById,
  findPaymentByProviderReference,
  recordPaymentEvent,
} from './payments.repository.js';

export interface CallbacksDeps {
  db: Kysely<DB>;
  clock: Clock;
  provider: PaymentProvider;
  stateMachine: PaymentStateMachine;
  /** Rejected callbacks stored per client (limit `rejected-callbacks-stored`). */
  limiter: Limiter;
  log: FastifyBaseLogger;
}

export type CallbackResult =
  | { accepted: true; outcome: CallbackOutcome }
  | { accepted: false; reason: 'INVALID_SIGNATURE' | 'MALFORMED' | 'INVALID_ENCODING' };

/** The event's texts as the database can store them (NULs dropped, value by value). */
function storableEvent(event: ProviderEvent): ProviderEvent {
  const text = (v: string | null) => (v === null ? null : storableText(v));
  return {
    ...event,
    providerReference: text(event.providerReference),
    paymentId: text(event.paymentId),
    currency: text(event.currency),
    operator: text(event.operator),
    operatorReference: text(event.operatorReference),
    code: text(event.code),
    endpoint: text(event.endpoint ?? null),
  };
}

/** A provider's HTTP callback, or the simulator's own: verify, then apply. */
export class PaymentCallbacks {
  constructor(private readonly deps: CallbacksDeps) {}

  /** `client` identifies the sender (its address) for the budget of stored rejections. */
  async handle(input: CallbackInput, client = 'internal'): Promise<CallbackResult> {
    const { provider, stateMachine } = this.deps;
    if (hasLoneSurrogate(input.query) || hasLoneSurrogate(input.body)) {
      // Not text in any encoding: no provider sends this, and it cannot be verified as sent.
      await this.reject(client, 'rejected_malformed', false, {
        query: input.query,
        body: input.body,
      });
      return { accepted: false, reason: 'INVALID_ENCODING' };
    }
    const parsed = await provider.parseCallback(input);
    if (!parsed.ok) {
      const badSignature = parsed.reason === 'INVALID_SIGNATURE';
      await this.reject(
        client,
        badSignature ? 'rejected_signature' : 'rejected_malformed',
        !badSignature,
        parsed.raw,
      );
      return { accepted: false, reason: parsed.reason };
    }
    const event = storableEvent(parsed.event);
    if (provider.capabilities.signedCallbackFields) {
      return {
        accepted: true,
        outcome: await stateMachine.applyEvent(event, 'callback', parsed.raw),
      };
    }
    return this.confirmWithProvider(event, parsed.raw, client);
  }

  /**
   * The callback's fields are not covered by its signature: it only prompts us to read the
   * transaction we recorded for the payment, with the reference we recorded — never with one
   * taken from the callback.
   */
  private async confirmWithProvider(
    event: ProviderEvent,
    raw: Record<string, unknown>,
    client: string,
  ): Promise<CallbackResult> {
    const { db, provider, stateMachine, limiter } = this.deps;
    const payment = await this.target(event);
    const record = async <O extends CallbackOutcome>(outcome: O) => {
      await recordPaymentEvent(db, {
        paymentId: payment?.id ?? null,
        provider: provider.name,
        source: 'callback',
        signatureValid: true,
        outcome,
        payload: raw,
      });
      return { accepted: true as const, outcome };
    };
    if (!payment) {
      // About no payment of ours. The signature binds none of the fields, so one copied
      // signature, replayed with made-up references while it is young, would add a row
      // each time: such prompts are stored within the budget of rejected callbacks only.
      if (await limiter.withinBudget({ limit: 'rejected-callbacks-stored', of: client })) {
        return record('unknown_payment');
      }
      return { accepted: true, outcome: 'unknown_payment' };
    }
    let checked: ProviderEvent;
    try {
      if (payment.provider_reference) {
        checked = await provider.getStatus(payment.provider_reference);
      } else {
        // The collect has not returned its reference (yet, or ever): look the transaction up
        // by our payment id. Not found: not applied now; the provider retries, the
        // reconciler looks again.
        const found = await lookUpTransaction(this.deps, payment);
        if (!found) return record('awaiting_reference');
        checked = found;
      }
    } catch (err) {
      if (err instanceof TransactionNotFoundError) {
        this.deps.log.warn(
          { paymentId: payment.id },
          'the provider does not know the reference we recorded; left to the reconciler',
        );
        return record('unknown_at_provider');
      }
      this.deps.log.warn({ err, paymentId: payment.id }, 'status check after callback failed');
      return record('unverified');
    }
    const outcome = await stateMachine.applyEvent(
      storableEvent(checked),
      'callback',
      { callback: raw, provider: { ...checked } },
      payment.id,
    );
    return { accepted: true, outcome };
  }

  /** Our payment the callback speaks of: by our id, else by a reference we recorded. */
  private async target(event: ProviderEvent): Promise<PaymentRow | undefined> {
    const { db, provider } = this.deps;
    if (event.paymentId && idSchema.safeParse(event.paymentId).success) {
      const byId = await findPaymentById(db, event.paymentId);
      if (byId) return byId;
    }
    if (!event.providerReference) return undefined;
    return findPaymentByProviderReference(db, provider.name, event.providerReference);
  }

  private async reject(
    client: string,
    outcome: Extract<RecordedOutcome, 'rejected_signature' | 'rejected_malformed'>,
    signatureValid: boolean,
    payload: Record<string, unknown>,
  ): Promise<void> {
    const { db, limiter, provider } = this.deps;
    // The rest are answered and dropped, so a flood of forgeries cannot fill the table.
    if (!(await limiter.withinBudget({ limit: 'rejected-callbacks-stored', of: client }))) return;
    await recordPaymentEvent(db, {
      paymentId: null,
      provider: provider.name,
      source: 'callback',
      signatureValid,
      outcome,
      payload,
    });
  }
}
