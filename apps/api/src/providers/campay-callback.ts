import type { PaymentStatus } from '@qless/contract';
import { jwtVerify } from 'jose';
import { eventFields, isRecord } from './campay-values.js';
import type { CallbackInput, CallbackResult } from './provider.js';

/**
 * Campay callbacks: the transaction's fields plus `signature`, an HS256 JWT made with the
 * app's webhook key. Campay does not document its claims (its examples carry only iat, nbf
 * and "source"), so a valid signature proves the sender knows the key, not that the fields
 * are Campay's: callers confirm the fields with a status query.
 */

/** Leeway for exp/nbf of callback signatures. */
const CALLBACK_CLOCK_TOLERANCE_S = 30;
/**
 * Oldest signature accepted, by its iat. A signature found in a log must not open the door
 * for days; Campay documents no retry schedule, and a refused late callback loses nothing
 * because the reconciler asks Campay itself.
 */
const CALLBACK_MAX_AGE_S = 15 * 60;

/** The callback's documented fields: a claim that names one must equal it (and it be sent). */
const CALLBACK_FIELDS = new Set([
  'reference',
  'external_reference',
  'status',
  'amount',
  'currency',
  'operator',
  'code',
  'operator_reference',
  'reason',
  'external_user',
  'phone_number',
  'endpoint',
]);

function claimsMatchFields(claims: Record<string, unknown>, fields: Record<string, unknown>) {
  for (const [name, claimed] of Object.entries(claims)) {
    if (!CALLBACK_FIELDS.has(name) && !(name in fields)) continue;
    if (!(name in fields) || claimed === null || typeof claimed === 'object') return false;
    if (String(claimed) !== String(fields[name])) return false;
  }
  return true;
}

function isPaymentStatus(value: string): value is PaymentStatus {
  return value === 'PENDING' || value === 'SUCCESSFUL' || value === 'FAILED';
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

/** Verifies a callback's signature and reads its event. Never throws for bad input. */
export function createCallbackParser(
  webhookKey: string,
  now: () => Date,
): (input: CallbackInput) => Promise<CallbackResult> {
  const key = new TextEncoder().encode(webhookKey);

  return async function parseCallback(input: CallbackInput): Promise<CallbackResult> {
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
      const { payload } = await jwtVerify(signature, key, {
        algorithms: ['HS256'],
        currentDate: now(),
        clockTolerance: CALLBACK_CLOCK_TOLERANCE_S,
        // Campay's example tokens all carry iat; a token without one cannot be aged.
        requiredClaims: ['iat'],
        maxTokenAge: CALLBACK_MAX_AGE_S,
      });
      if (!claimsMatchFields(payload, raw)) return { ok: false, reason: 'INVALID_SIGNATURE', raw };
    } catch {
      return { ok: false, reason: 'INVALID_SIGNATURE', raw };
    }
    // Callbacks must carry one of the three statuses exactly; anything else is not trusted.
    const status = typeof raw.status === 'string' ? raw.status.trim().toUpperCase() : '';
    if (!isPaymentStatus(status)) return { ok: false, reason: 'MALFORMED', raw };
    return { ok: true, raw, event: { ...eventFields(raw), status } };
  };
}
