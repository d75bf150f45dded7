import type { PaymentStatus } from '@qless/contract';
import { jwtVerify } from 'jose';
import {
  type CallbackInput,
  type CallbackResult,
  type CollectFailureCode,
  type CollectRequest,
  type CollectResult,
  type PaymentProvider,
  type ProviderEvent,
  ProviderUnavailableError,
} from './provider.js';

/**
 * Campay (campay.net) adapter: MTN Mobile Money and Orange Money collections in Cameroon.
 *
 * Protocol (Django REST framework style, trailing slashes matter):
 * - POST /api/token/ {username, password} -> {token, expires_in (seconds)}
 * - POST /api/collect/ with "Authorization: Token <token>" -> {reference, ussd_code, operator}
 *   or 400 {message, error_code}
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
export class CampayTransactionNotFoundError extends Error {
  readonly providerReference: string;
  constructor(providerReference: string) {
    super(`Campay has no transaction with reference ${providerReference}`);
    this.name = 'CampayTransactionNotFoundError';
    this.providerReference = providerReference;
  }
}

/** Refresh the token this long before Campay says it expires (capped at half its lifetime). */
const TOKEN_REFRESH_MARGIN_MS = 60_000;
/** Used when the token response carries no usable expires_in; a 401 still forces a refresh. */
const DEFAULT_TOKEN_LIFETIME_MS = 10 * 60_000;
/** Leeway for exp/nbf of callback signatures. */
const CALLBACK_CLOCK_TOLERANCE_S = 30;

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

function isPaymentStatus(value: string): value is PaymentStatus {
  return value === 'PENDING' || value === 'SUCCESSFUL' || value === 'FAILED';
}

type HttpOutcome =
  | { kind: 'response'; status: number; body: unknown }
  | { kind: 'timeout'; error: unknown }
  | { kind: 'network'; error: unknown };

interface CachedToken {
  value: string;
  /** Epoch ms after which we fetch a new token instead of using this one. */
  refreshAt: number;
}

class TokenRequestError extends Error {
  readonly kind: 'auth' | 'unavailable';
  readonly detail: string;
  constructor(kind: 'auth' | 'unavailable', detail: string, options?: { cause?: unknown }) {
    super(`Campay token request failed: ${detail}`, options);
    this.name = 'TokenRequestError';
    this.kind = kind;
    this.detail = detail;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asString(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function nonEmptyString(value: unknown): string | null {
  const s = asString(value);
  return s !== null && s.trim() !== '' ? s : null;
}

/** Campay sends amounts as numbers in status responses and as strings in callbacks. */
function asAmount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** Rejects as soon as the signal aborts, without waiting for the promise. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

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

/** Picks where the callback fields are: a parsed (or raw string) body, else the query. */
function callbackFields(input: CallbackInput): Record<string, unknown> {
  const body = input?.body;
  let fromBody: Record<string, unknown> | null = null;
  if (isRecord(body)) {
    fromBody = body;
  } else if (typeof body === 'string' && body.trim() !== '') {
    const text = body.trim();
    if (text.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (isRecord(parsed)) fromBody = parsed;
      } catch {
        fromBody = null;
      }
    } else {
      fromBody = Object.fromEntries(new URLSearchParams(text));
    }
  }
  if (fromBody && ('signature' in fromBody || 'status' in fromBody || 'reference' in fromBody)) {
    return { ...fromBody };
  }
  return isRecord(input?.query) ? { ...input.query } : {};
}

export function createCampayProvider(
  options: CampayOptions,
  deps: CampayDeps = {},
): PaymentProvider {
  const baseUrl = validateOptions(options);
  const doFetch = deps.fetch ?? globalThis.fetch;
  const now = deps.now ?? (() => new Date());
  const webhookKey = new TextEncoder().encode(options.webhookKey);

  let cachedToken: CachedToken | null = null;
  let pendingToken: Promise<string> | null = null;

  async function request(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal,
    init: { token?: string; json?: unknown } = {},
  ): Promise<HttpOutcome> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (init.token !== undefined) headers.Authorization = `Token ${init.token}`;
    if (init.json !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
        signal,
        redirect: 'error',
      });
      const text = await response.text();
      let body: unknown = null;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON (an HTML error page from a proxy, say): keep no body at all.
          body = null;
        }
      }
      return { kind: 'response', status: response.status, body };
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return { kind: 'timeout', error };
      return { kind: 'network', error };
    }
  }

  async function fetchToken(signal: AbortSignal): Promise<string> {
    const outcome = await request('POST', '/api/token/', signal, {
      json: { username: options.username, password: options.password },
    });
    if (outcome.kind === 'timeout') {
      throw new TokenRequestError('unavailable', 'timeout', { cause: outcome.error });
    }
    if (outcome.kind === 'network') {
      throw new TokenRequestError('unavailable', 'network error', { cause: outcome.error });
    }
    const { status, body } = outcome;
    if (status >= 200 && status < 300) {
      const token = isRecord(body) ? nonEmptyString(body.token) : null;
      if (token === null) throw new TokenRequestError('unavailable', 'response has no token');
      const expiresIn = isRecord(body) ? Number(body.expires_in) : Number.NaN;
      const lifetimeMs =
        Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : DEFAULT_TOKEN_LIFETIME_MS;
      const margin = Math.min(TOKEN_REFRESH_MARGIN_MS, lifetimeMs / 2);
      cachedToken = { value: token, refreshAt: now().getTime() + lifetimeMs - margin };
      return token;
    }
    if (status === 400 || status === 401 || status === 403) {
      throw new TokenRequestError('auth', `credentials refused (HTTP ${status})`);
    }
    throw new TokenRequestError('unavailable', `HTTP ${status}`);
  }

  /** A valid cached token, or a new one; concurrent callers share one token request. */
  async function getToken(signal: AbortSignal): Promise<string> {
    if (cachedToken && now().getTime() < cachedToken.refreshAt) return cachedToken.value;
    if (!pendingToken) {
      cachedToken = null;
      pendingToken = fetchToken(signal).finally(() => {
        pendingToken = null;
      });
    }
    return untilAborted(pendingToken, signal);
  }

  function dropToken(token: string): void {
    if (cachedToken?.value === token) cachedToken = null;
  }

  /**
   * Sends an authenticated call. On 401 it drops the token, fetches a new one and retries
   * once. TokenRequestError escapes for the caller to map.
   */
  async function authenticated(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal,
    json?: unknown,
  ): Promise<HttpOutcome> {
    const token = await getToken(signal);
    const first = await request(method, path, signal, { token, json });
    if (first.kind !== 'response' || first.status !== 401) return first;
    dropToken(token);
    const fresh = await getToken(signal);
    return request(method, path, signal, { token: fresh, json });
  }

  function unavailable(providerCode: string | null): CollectResult {
    return {
      ok: false,
      code: 'PROVIDER_UNAVAILABLE',
      message: CAMPAY_FAILURE_MESSAGES.unavailable,
      providerCode,
    };
  }

  function mapCollectFailure(status: number, body: unknown): CollectResult {
    const errorCode = isRecord(body) ? nonEmptyString(body.error_code) : null;
    if (status >= 500) return unavailable(errorCode ?? `HTTP_${status}`);
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
      outcome = await authenticated('POST', '/api/collect/', signal, payload);
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
      outcome = await authenticated('GET', path, signal);
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
    return {
      providerReference: nonEmptyString(body.reference) ?? providerReference,
      paymentId: nonEmptyString(body.external_reference),
      status: mapped,
      amount: asAmount(body.amount),
      currency: nonEmptyString(body.currency),
      operator: nonEmptyString(body.operator),
      operatorReference: nonEmptyString(body.operator_reference),
      code: nonEmptyString(body.code),
    };
  }

  async function parseCallback(input: CallbackInput): Promise<CallbackResult> {
    let fields: Record<string, unknown>;
    try {
      fields = callbackFields(input);
    } catch {
      fields = {};
    }
    const { signature, ...raw } = fields;
    if (typeof signature !== 'string' || signature === '') {
      return { ok: false, reason: 'INVALID_SIGNATURE', raw };
    }
    try {
      await jwtVerify(signature, webhookKey, {
        algorithms: ['HS256'],
        currentDate: now(),
        clockTolerance: CALLBACK_CLOCK_TOLERANCE_S,
      });
    } catch {
      return { ok: false, reason: 'INVALID_SIGNATURE', raw };
    }
    // Callbacks must carry one of the three statuses exactly; anything else is not trusted.
    const status = typeof raw.status === 'string' ? raw.status.trim().toUpperCase() : '';
    if (!isPaymentStatus(status)) return { ok: false, reason: 'MALFORMED', raw };
    return {
      ok: true,
      raw,
      event: {
        providerReference: nonEmptyString(raw.reference),
        paymentId: nonEmptyString(raw.external_reference),
        status,
        amount: asAmount(raw.amount),
        currency: nonEmptyString(raw.currency),
        operator: nonEmptyString(raw.operator),
        operatorReference: nonEmptyString(raw.operator_reference),
        code: nonEmptyString(raw.code),
      },
    };
  }

  return {
    name: 'campay',
    capabilities: { signedCallbackFields: false },
    collect,
    getStatus,
    parseCallback,
    close: async () => undefined,
  };
}
