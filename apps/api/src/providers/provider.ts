import type { PaymentStatus } from '@qless/contract';

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
}

export interface CallbackInput {
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export type CallbackResult =
  | { ok: true; event: ProviderEvent; raw: Record<string, unknown> }
  | { ok: false; reason: 'INVALID_SIGNATURE' | 'MALFORMED'; raw: Record<string, unknown> };

export interface PaymentProvider {
  readonly name: string;
  collect(request: CollectRequest): Promise<CollectResult>;
  /**
   * Asks the provider for the current state of a transaction.
   * Throws ProviderUnavailableError when the provider cannot be reached or answers 5xx.
   */
  getStatus(providerReference: string): Promise<ProviderEvent>;
  /** Verifies the callback's signature and extracts the event. Never throws for bad input. */
  parseCallback(input: CallbackInput): Promise<CallbackResult>;
}

export class ProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderUnavailableError';
  }
}
