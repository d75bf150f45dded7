import type { Clock } from '../../core/clock.js';

/**
 * One interface for every SMS gateway, shaped like the payment providers': the outbox worker
 * owns the database, retries and backoff; a provider only talks to the outside world and
 * says whether trying again could help.
 */
export type SmsProviderName = 'simulator' | 'africastalking';

export interface SmsMessage {
  /** E.164, "+2376xxxxxxxx". */
  to: string;
  text: string;
}

export type SmsSendResult =
  | {
      ok: true;
      /** The gateway's id of the message, when it gives one. */
      providerMessageId: string | null;
      /** Parts billed, as the gateway counted them (or as we count them). */
      parts: number | null;
    }
  | {
      ok: false;
      /** Short, stable and free of the number, the text and any credential, e.g. "AT 403 InvalidPhoneNumber". */
      code: string;
      /**
       * Trying again later may deliver it (gateway down, timeout, no credit left). False when
       * the gateway refused this message for good (a number that does not exist…).
       */
      retryable: boolean;
    };

/** What a provider can do; the outbox reads these, never the provider's name. */
export interface SmsCapabilities {
  /** Messages reach phones. False for the simulator: it only records them as sent. */
  readonly deliversToPhones: boolean;
  /**
   * A send that timed out after reaching the gateway may have gone out; when false (no
   * idempotency key in the gateway's API), trying it again may deliver it twice.
   */
  readonly idempotentSend: boolean;
}

export interface SmsProvider {
  readonly name: SmsProviderName;
  readonly capabilities: SmsCapabilities;
  /** Never throws for a refusal or a network fault: they are results. */
  send(message: SmsMessage): Promise<SmsSendResult>;
  /** Aborts requests in flight (shutdown). */
  close(): Promise<void>;
}

/** What the app hands a provider when it builds it. */
export interface SmsProviderContext {
  clock: Clock;
  /** The HTTP client (tests may wrap it); global fetch by default. */
  fetch?: typeof fetch;
}
