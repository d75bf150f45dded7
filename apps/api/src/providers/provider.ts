import type { PaymentStatus, ProviderName } from '@qless/contract';
import type { Clock } from '../core/clock.js';

/**
 * One interface for every mobile-money provider. The payments service owns the database
 * and the state machine; a provider only talks to the outside world.
 */
export interface CollectRequest {
  /** Our payment id; sent to the provider as its external reference. */
  paymentId: string;
  amount: number;
  currency: string;
  /** E.164, "+2376xxxxxxxx". */
  phone: string;
  description: string;
}

export type CollectFailureCode = 'PAYMENT_DECLINED' | 'INVALID_PHONE' | 'PROVIDER_UNAVAILABLE';

export type CollectResult =
  | {
      ok: true;
      /** The provider's own reference for the transaction. */
      providerReference: string;
      ussdCode: string | null;
      operator: string | null;
    }
  | {
      ok: false;
      code: CollectFailureCode;
      /** Safe to show to the customer. */
      message: string;
      /** The provider's raw error code (e.g. Campay "ER101"), for logs and records. */
      providerCode: string | null;
      /**
       * The request may have reached the provider (timeout, lost connection, 5xx): the payer
       * may still get the prompt and pay, so the payment must not be failed at once.
       */
      uncertain?: boolean;
    };

/** What a provider says about one transaction, from a status query or a callback. */
export interface ProviderEvent {
  /** The provider's reference, when known. */
  providerReference: string | null;
  /** Our payment id as echoed back by the provider (external_reference), when known. */
  paymentId: string | null;
  status: PaymentStatus;
  amount: number | null;
  currency: string | null;
  operator: string | null;
  operatorReference: string | null;
  /** Provider result code, e.g. a failure reason. */
  code: string | null;
  /** What kind of transaction it is, when the provider says (Campay: collect or withdraw). */
  endpoint?: string | null;
}

/** Where to look for a transaction whose reference we never received (crash, timeout). */
export interface TransactionQuery {
  /** Our payment id: the external reference, and part of the description we sent. */
  paymentId: string;
  /** E.164, as given to collect. */
  phone: string;
  amount: number;
  /** The collect was sent between these instants. */
  from: Date;
  to: Date;
}

export interface CallbackInput {
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export type CallbackResult =
  | { ok: true; event: ProviderEvent; raw: Record<string, unknown> }
  | { ok: false; reason: 'INVALID_SIGNATURE' | 'MALFORMED'; raw: Record<string, unknown> };

/** What a provider can do; the payments module reads these, never the provider's name. */
export interface ProviderCapabilities {
  /**
   * The callback's signature covers the transaction's reference, status and amount, so a
   * verified callback may be applied as it stands. When false (Campay: its JWT binds none
   * of the fields), a final callback is only a prompt to read the transaction's status
   * from the provider with the reference we recorded.
   */
  readonly signedCallbackFields: boolean;
  /**
   * The provider can find a transaction by our payment id (`findTransaction`), so a payment
   * whose collect answer was lost can still be settled. When false, such a payment is
   * flagged for review once it is too old to wait for.
   */
  readonly lookupByPaymentId: boolean;
  /**
   * How long after a payment started a lookup by our payment id that finds nothing means
   * the collect never reached the provider, so the payment fails (NOT_AT_PROVIDER) and its
   * seat is freed; a success reported later is recorded for refund. null: "not found" is
   * never taken as final (Campay's history is not documented to list every transaction at
   * once), and such a payment is flagged for review when too old to wait for.
   */
  readonly notFoundIsFinalAfterMs: number | null;
}

/** What the app hands a provider when it builds it. */
export interface ProviderContext {
  clock: Clock;
  /**
   * Where a provider that settles by itself (the simulator) sends its callbacks: the same
   * handler as the HTTP callback route.
   */
  deliverCallback(input: CallbackInput): Promise<void>;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  readonly capabilities: ProviderCapabilities;
  collect(request: CollectRequest): Promise<CollectResult>;
  /**
   * Asks the provider for the current state of a transaction.
   * Throws ProviderUnavailableError when the provider cannot be reached or answers 5xx.
   */
  getStatus(providerReference: string): Promise<ProviderEvent>;
  /**
   * The transaction made for one of our payments, read by its reference once found; null
   * when the provider has none. Only when `capabilities.lookupByPaymentId`.
   * Throws ProviderUnavailableError when the provider cannot answer.
   */
  findTransaction?(query: TransactionQuery): Promise<ProviderEvent | null>;
  /** Verifies the callback's signature and extracts the event. Never throws for bad input. */
  parseCallback(input: CallbackInput): Promise<CallbackResult>;
  /** Stops timers and open requests (shutdown). */
  close(): Promise<void>;
}

export class ProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderUnavailableError';
  }
}

/** The provider has no transaction with this reference (its status query answered 404). */
export class TransactionNotFoundError extends Error {
  readonly providerReference: string;
  constructor(providerReference: string) {
    super(`The provider has no transaction with reference ${providerReference}`);
    this.name = 'TransactionNotFoundError';
    this.providerReference = providerReference;
  }
}
