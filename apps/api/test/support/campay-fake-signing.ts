import { SignJWT } from 'jose';

/**
 * How the fake Campay signs and delivers callbacks.
 *
 * Campay documents the callback `signature` only as a JWT to validate with the app's webhook
 * key (HS256). Its claims are not documented; the docs' example tokens carry only `iat`,
 * `nbf` and `"source": "CamPay"`, so that is all the fake puts in by default. In particular
 * the token does NOT cover the callback's fields: a receiver must not trust them because the
 * signature verifies. Anything else below (another key or algorithm, an `exp`) exists only
 * for tests that ask for it on purpose.
 */

export interface SignCallbackOptions {
  /** Sign with another key (a forgery). Default: the fake's webhook key. */
  key?: string;
  /** Another algorithm than Campay's HS256, to test that it is refused. */
  alg?: 'HS256' | 'HS384' | 'HS512';
  /**
   * Adds an `exp` this many seconds after the fake's now (negative: already expired).
   * Not in Campay's examples; only for tests of expiry handling.
   */
  expiresInSeconds?: number;
}

/**
 * GET with the fields in the query string and POST JSON are the two ways Campay documents
 * (chosen in the app's settings). POST_FORM is not documented; it tests a tolerant receiver.
 */
export type CallbackDelivery = 'GET' | 'POST_JSON' | 'POST_FORM';

/** A callback signature like the docs' examples: claims source, iat and nbf only. */
export function signCampayCallback(
  webhookKey: string,
  now: Date,
  options: SignCallbackOptions = {},
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const jwt = new SignJWT({ source: 'CamPay' })
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt);
  if (options.expiresInSeconds !== undefined) {
    jwt.setExpirationTime(issuedAt + options.expiresInSeconds);
  }
  return jwt.sign(new TextEncoder().encode(options.key ?? webhookKey));
}

/** The fake gives up on a webhook after this long (a guess: Campay's timeout is not documented). */
const DELIVERY_TIMEOUT_MS = 10_000;

/** Sends callback fields (signature included) to a webhook URL, as Campay does. */
export function deliverCampayCallback(
  url: string,
  fields: Record<string, string>,
  delivery: CallbackDelivery = 'GET',
): Promise<Response> {
  const signal = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  if (delivery === 'GET') {
    const target = new URL(url);
    for (const [key, value] of Object.entries(fields)) target.searchParams.set(key, value);
    return fetch(target, { signal });
  }
  if (delivery === 'POST_JSON') {
    return fetch(url, {
      method: 'POST',
      signal,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(fields),
    });
  }
  return fetch(url, {
    method: 'POST',
    signal,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}
