import type { PaymentStatus } from '@qless/contract';
import { isAbortError } from './abort.js';
import { createCallbackParser } from './campay-callback.js';
import { createHistoryLookup } from './campay-history.js';
import { createCampayHttp, type HttpOutcome, TokenRequestError } from './campay-http.js';
import { eventFields, isRecord, nonEmptyString } from './campay-values.js';
import {
  type CollectFailureCode,
  type CollectRequest,
  type CollectResult,
  type PaymentProvider,
  type ProviderEvent,
  ProviderUnavailableError,
  TransactionNotFoundError,
} from './provider.js';

/**
 * Campay (campay.net) adapter: MTN Mobile Money and Orange Money collections in Cameroon.
 *
 * Protocol (Django REST framework style, trailing slashes matter):
 * - POST /api/token/ {username, password} -> {token, expires_in (seconds)}
 * - POST /api/collect/ with "Authorization: Token <token>" -> {reference, ussd_code, operator}
 *   or an error such as 400 {message, error_code} (the ER codes are documented; the error
 *   body's shape and HTTP statuses are not, so the mapping below reads them defensively)
 * - GET /api/transaction/{reference}/ -> {reference, status, amount, currency, operator, code,
 *   operator_reference, external_reference}
 * - Callbacks carry the same fields plus `signature`, a JWT signed HS256 with the app's
 *   webhook key.
 */
export interface CampayOptions {
  /** e.g. "https://demo.campay.net" or "https://www.campay.net" (no trailing "/api"). */
  baseUrl: string;
  username: string;
  password: string;
  /** The app's webhook key; callback signatures are HS256 JWTs signed with it. */
  webhookKey: string;
  /** Upper bound for one whole provider operation (token fetch, call and one retry). */
  timeoutMs: number;
}

export interface CampayDeps {
  fetch?: typeof fetch;
  now?: () => Date;
}

/** The credentials were refused, or a fresh token was refused. A configuration problem. */
export class CampayAuthError extends ProviderUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CampayAuthError';
  }
}

/** GET /api/transaction/{reference}/ answered 404. */
export class CampayTransactionNotFoundError extends TransactionNotFoundError {
  constructor(providerReference: string) {
    super(providerReference);
    this.name = 'CampayTransactionNotFoundError';
  }
}

/** Customer-facing messages: short, plain English, never provider text. */
export const CAMPAY_FAILURE_MESSAGES = {
  invalidPhone: 'This phone number cannot receive mobile money requests. Check it and try again.',
  unsupportedOperator:
    'This number is not supported. Use an MTN Mobile Money or Orange Money number.',
  invalidAmount: 'This amount cannot be paid by mobile money.',
  insufficientBalance: 'The payment was declined. Check your mobile money balance and try again.',
  declined: 'The payment could not be started. Try again or use another number.',
  unavailable: 'Mobile money payments are unavailable right now. Please try again in a moment.',
} as const;

interface CollectErrorMapping {
  code: CollectFailureCode;
  message: string;
}

/**
 * Campay's documented collect error codes.
 * ER102 (operator not supported / number not supported) maps to INVALID_PHONE: the fix is
 * for the customer to enter another number (MTN or Orange), which is what INVALID_PHONE tells
 * the client; nothing was declined by a wallet.
 */
const COLLECT_ERROR_CODES: Record<string, CollectErrorMapping> = {
  ER101: { code: 'INVALID_PHONE', message: CAMPAY_FAILURE_MESSAGES.invalidPhone },
  ER102: { code: 'INVALID_PHONE', message: CAMPAY_FAILURE_MESSAGES.unsupportedOperator },
  ER201: { code: 'PAYMENT_DECLINED', message: CAMPAY_FAILURE_MESSAGES.invalidAmount },
  ER301: { code: 'PAYMENT_DECLINED', message: CAMPAY_FAILURE_MESSAGES.insufficientBalance },
};
/** The collect error codes above (failure codes of payments it refuses). */
export const CAMPAY_COLLECT_ERROR_CODES = Object.keys(COLLECT_ERROR_CODES);

/**
 * Transaction statuses other than PENDING / SUCCESSFUL / FAILED: these clearly mean the
 * payment is over without money moving, so they are FAILED. Anything else unknown is treated
 * as PENDING: a status query that cannot be understood must never fail (or succeed) a payment
 * that the customer may still approve; the hold expiry and later queries settle it.
 */
const TERMINAL_FAILURE_STATUSES = new Set([
  'FAILED',
  'FAILURE',
  'CANCELLED',
  'CANCELED',
  'REJECTED',
  'DECLINED',
  'EXPIRED',
  'ERROR',
  'TIMEOUT',
  'TIMED_OUT',
]);

function validateOptions(options: CampayOptions): string {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError('Campay baseUrl must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError('Campay baseUrl must be an http(s) URL');
  }
  if (!options.username || !options.password) {
    throw new TypeError('Campay username and password are required');
  }
  if (!options.webhookKey) {
    throw new TypeError('Campay webhookKey is required to verify callbacks');
  }
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new TypeError('Campay timeoutMs must be a positive number');
  }
  return options.baseUrl.replace(/\/+$/, '');
}

/**
 * Answers after which Campay may have sent the PIN prompt: no answer at all, an answer we
 * could not read, or a server error (the protocol notes: "a collect that timed out or
 * answered 5xx may still have sent the PIN prompt").
 */
function mayHaveReachedPayer(providerCode: string | null): boolean {
  return (
    providerCode === 'TIMEOUT' ||
    providerCode === 'NETWORK_ERROR' ||
    providerCode === 'BAD_RESPONSE' ||
    providerCode === 'HTTP_408' ||
    /^HTTP_5\d\d$/.test(providerCode ?? '')
  );
}

function unavailable(providerCode: string | null, status?: number): CollectResult {
  return {
    ok: false,
    code: 'PROVIDER_UNAVAILABLE',
    message: CAMPAY_FAILURE_MESSAGES.unavailable,
    providerCode,
    ...(mayHaveReachedPayer(providerCode) || (status !== undefined && status >= 500)
      ? { uncertain: true }
      : {}),
  };
}

function mapCollectFailure(status: number, body: unknown): CollectResult {
  const errorCode = isRecord(body) ? nonEmptyString(body.error_code) : null;
  if (status >= 500) return unavailable(errorCode ?? `HTTP_${status}`, status);
  // Still 401 after a fresh token: our credentials are not accepted for this call.
  if (status === 401) return unavailable(errorCode ?? 'UNAUTHORIZED');
  // Throttling and request timeouts are transient, not a verdict on the payment.
  if (status === 408 || status === 429) return unavailable(errorCode ?? `HTTP_${status}`);
  const known = errorCode ? COLLECT_ERROR_CODES[errorCode.toUpperCase()] : undefined;
  if (known) return { ok: false, ...known, providerCode: errorCode };
  return {
    ok: false,
    code: 'PAYMENT_DECLINED',
    message: CAMPAY_FAILURE_MESSAGES.declined,
    providerCode: errorCode ?? `HTTP_${status}`,
  };
}

export function createCampayProvider(
  options: CampayOptions,
  deps: CampayDeps = {},
): PaymentProvider {
  const baseUrl = validateOptions(options);
  const now = deps.now ?? (() => new Date());
  const http = createCampayHttp({
    baseUrl,
    username: options.username,
    password: options.password,
    fetch: deps.fetch ?? globalThis.fetch,
    now,
  });

  async function collect(req: CollectRequest): Promise<CollectResult> {
    // Campay wants the MSISDN without "+": "2376xxxxxxxx".
    const phoneMatch = /^\+?(\d{8,15})$/.exec(req.phone?.trim() ?? '');
    if (!phoneMatch?.[1]) {
      return {
        ok: false,
        code: 'INVALID_PHONE',
        message: CAMPAY_FAILURE_MESSAGES.invalidPhone,
        providerCode: null,
      };
    }
    // XAF has no minor unit; Campay takes whole amounts as strings ("2").
    if (!Number.isSafeInteger(req.amount) || req.amount <= 0) {
      return {
        ok: false,
        code: 'PAYMENT_DECLINED',
        message: CAMPAY_FAILURE_MESSAGES.invalidAmount,
        providerCode: null,
      };
    }
    const payload = {
      amount: String(req.amount),
      currency: req.currency,
      from: phoneMatch[1],
      description: req.description,
      external_reference: req.paymentId,
    };
    const signal = AbortSignal.timeout(options.timeoutMs);
    let outcome: HttpOutcome;
    try {
      outcome = await http.authenticated('POST', '/api/collect/', signal, payload);
    } catch (error) {
      if (error instanceof TokenRequestError) {
        return unavailable(error.kind === 'auth' ? 'AUTH_FAILED' : 'TOKEN_UNAVAILABLE');
      }
      if (isAbortError(error) || signal.aborted) return unavailable('TIMEOUT');
      return unavailable('NETWORK_ERROR');
    }
    if (outcome.kind === 'timeout') return unavailable('TIMEOUT');
    if (outcome.kind === 'network') return unavailable('NETWORK_ERROR');
    const { status, body } = outcome;
    if (status >= 200 && status < 300) {
      const reference = isRecord(body) ? nonEmptyString(body.reference) : null;
      // A 2xx without a reference: the request may or may not have reached the operator.
      if (!isRecord(body) || reference === null) return unavailable('BAD_RESPONSE');
      return {
        ok: true,
        providerReference: reference,
        ussdCode: nonEmptyString(body.ussd_code),
        operator: nonEmptyString(body.operator),
      };
    }
    return mapCollectFailure(status, body);
  }

  async function getStatus(providerReference: string): Promise<ProviderEvent> {
    if (!providerReference) throw new TypeError('providerReference is required');
    const path = `/api/transaction/${encodeURIComponent(providerReference)}/`;
    const signal = AbortSignal.timeout(options.timeoutMs);
    let outcome: HttpOutcome;
    try {
      outcome = await http.authenticated('GET', path, signal);
    } catch (error) {
      if (error instanceof TokenRequestError) {
        if (error.kind === 'auth') {
          throw new CampayAuthError('Campay refused the API credentials', { cause: error });
        }
        throw new ProviderUnavailableError(`Campay token request failed (${error.detail})`, {
          cause: error,
        });
      }
      throw new ProviderUnavailableError('Campay status query timed out or failed', {
        cause: error,
      });
    }
    if (outcome.kind === 'timeout') {
      throw new ProviderUnavailableError(
        `Campay status query timed out after ${options.timeoutMs} ms`,
        { cause: outcome.error },
      );
    }
    if (outcome.kind === 'network') {
      throw new ProviderUnavailableError('Campay could not be reached', { cause: outcome.error });
    }
    const { status, body } = outcome;
    if (status === 404) throw new CampayTransactionNotFoundError(providerReference);
    if (status === 401) throw new CampayAuthError('Campay refused a freshly issued token');
    if (status >= 500 || status === 408 || status === 429) {
      throw new ProviderUnavailableError(`Campay status query answered HTTP ${status}`);
    }
    if (status < 200 || status >= 300) {
      throw new Error(`Campay status query for ${providerReference} answered HTTP ${status}`);
    }
    if (!isRecord(body)) {
      throw new ProviderUnavailableError('Campay status query returned an unreadable body');
    }
    const raw = nonEmptyString(body.status)?.trim().toUpperCase() ?? '';
    let mapped: PaymentStatus = 'PENDING';
    if (raw === 'SUCCESSFUL') mapped = 'SUCCESSFUL';
    else if (TERMINAL_FAILURE_STATUSES.has(raw)) mapped = 'FAILED';
    const fields = eventFields(body);
    return {
      ...fields,
      providerReference: fields.providerReference ?? providerReference,
      status: mapped,
    };
  }

  const parseCallback = createCallbackParser(options.webhookKey, now);

  return {
    name: 'campay',
    capabilities: {
      signedCallbackFields: false,
      lookupByPaymentId: true,
      notFoundIsFinalAfterMs: null,
    },
    collect,
    getStatus,
    findTransaction: createHistoryLookup(http, options.timeoutMs, getStatus),
    parseCallback,
    close: async () => undefined,
  };
}
