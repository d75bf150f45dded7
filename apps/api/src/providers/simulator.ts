import { jwtVerify, SignJWT } from 'jose';
import type {
  CallbackInput,
  CallbackResult,
  CollectRequest,
  CollectResult,
  PaymentProvider,
  ProviderContext,
  ProviderEvent,
  TransactionQuery,
} from './provider.js';
import type { SimulatorLedger } from './simulator-ledger.js';

/**
 * The payment simulator: the default provider for demos and tests. Outcome by the local
 * number's last digits: …000 → FAILED, …999 → never settles, anything else → SUCCESSFUL,
 * `delayMs` after the collect.
 *
 * The provider reference encodes the outcome, the settle time, the amount and our payment id,
 * so a status check gives the whole answer after a restart, in any process. It settles by
 * sending itself a signed callback through the context's `deliverCallback`, the same handler
 * as the HTTP callback route (in the process that took the collect: one that dies first
 * leaves the payment to the reconciler). Its signature covers every field it sends.
 *
 * Like a real provider it keeps a book of the collects it accepted (`ledger`, in the
 * database: every process sees it), written before the collect answers: a payment whose
 * reference was never saved (the process died, or its database link failed, after the
 * collect) is found by our payment id, and one that is not in the book was never collected.
 */
/** The failure code of the simulator's declined payments (numbers ending in 000). */
export const SIMULATED_DECLINE = 'SIMULATED_DECLINE';

export interface SimulatorOptions {
  delayMs: number;
  /** HS256 key for the simulator's callback signatures. */
  signingKey: string;
  /** The collects it accepted (simulator-ledger.ts). */
  ledger: SimulatorLedger;
}

/**
 * A payment not in the ledger this long after it started was never collected: the ledger is
 * written before a collect answers, and an initiation ends long before this.
 */
export const SIMULATOR_NOT_FOUND_FINAL_MS = 60_000;

/** The callback fields the signature binds, one claim each. */
const SIGNED_FIELDS = ['reference', 'status', 'external_reference', 'amount', 'currency'] as const;

/** Leeway for the issue time of callback signatures (clocks of two processes). */
const CALLBACK_CLOCK_TOLERANCE_S = 30;
/**
 * Oldest callback signature accepted, by its iat, as for Campay: a signature copied from a
 * log must not be replayable for ever. The simulator signs at delivery, so its own are
 * seconds old; a refused late one loses nothing, the reconciler asks the simulator itself.
 */
const CALLBACK_MAX_AGE_S = 15 * 60;

/**
 * The simulator's callback signature over `fields`, issued at `issuedAt` (the injected
 * clock's time; tests sign their callbacks with it).
 */
export function signSimulatorCallback(
  signingKey: string,
  fields: Record<string, string>,
  issuedAt: Date,
): Promise<string> {
  const claims = Object.fromEntries(SIGNED_FIELDS.map((f) => [f, fields[f]]));
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
    .sign(new TextEncoder().encode(signingKey));
}

type Outcome = 'S' | 'F' | 'P';

function outcomeFor(phone: string): Outcome {
  if (phone.endsWith('000')) return 'F';
  if (phone.endsWith('999')) return 'P';
  return 'S';
}

const REFERENCE = /^sim_([SFP])_(\d+)_(\d+)_([A-Z]{3})_(.+)$/;

interface Decoded {
  outcome: Outcome;
  settleAt: number;
  amount: number;
  currency: string;
  paymentId: string;
}

export function createSimulatorProvider(
  options: SimulatorOptions,
  context: ProviderContext,
): PaymentProvider {
  const key = new TextEncoder().encode(options.signingKey);
  const timers = new Set<NodeJS.Timeout>();

  function decode(reference: string): Decoded | null {
    const m = REFERENCE.exec(reference);
    if (!m) return null;
    return {
      outcome: m[1] as Outcome,
      settleAt: Number(m[2]),
      amount: Number(m[3]),
      currency: m[4] as string,
      paymentId: m[5] as string,
    };
  }

  function statusAt(outcome: Outcome, settleAt: number, now: number): ProviderEvent['status'] {
    if (outcome === 'P' || now < settleAt) return 'PENDING';
    return outcome === 'S' ? 'SUCCESSFUL' : 'FAILED';
  }

  async function getStatus(providerReference: string): Promise<ProviderEvent> {
    const decoded = decode(providerReference);
    if (!decoded) throw new Error(`Unknown simulator reference ${providerReference}`);
    return {
      providerReference,
      paymentId: decoded.paymentId,
      status: statusAt(decoded.outcome, decoded.settleAt, context.clock.now().getTime()),
      amount: decoded.amount,
      currency: decoded.currency,
      operator: null,
      operatorReference: null,
      code: decoded.outcome === 'F' ? SIMULATED_DECLINE : null,
    };
  }

  const provider: PaymentProvider = {
    name: 'simulator',
    capabilities: {
      signedCallbackFields: true,
      lookupByPaymentId: true,
      notFoundIsFinalAfterMs: SIMULATOR_NOT_FOUND_FINAL_MS,
    },

    async collect(request: CollectRequest): Promise<CollectResult> {
      const outcome = outcomeFor(request.phone);
      const settleAt = context.clock.now().getTime() + options.delayMs;
      const reference = `sim_${outcome}_${settleAt}_${request.amount}_${request.currency}_${request.paymentId}`;
      // In the book before answering: if this throws, the collect did not happen (no timer);
      // the initiation treats a throw as an uncertain answer and the reconciler looks it up.
      await options.ledger.record(request.paymentId, reference, context.clock.now());
      if (outcome !== 'P') {
        const timer = setTimeout(async () => {
          timers.delete(timer);
          const status = outcome === 'S' ? 'SUCCESSFUL' : 'FAILED';
          const fields: Record<string, string> = {
            status,
            reference,
            external_reference: request.paymentId,
            amount: String(request.amount),
            currency: request.currency,
            operator: request.phone.startsWith('+23769') ? 'ORANGE' : 'MTN',
            code: status === 'FAILED' ? SIMULATED_DECLINE : '',
            operator_reference: `OP${settleAt}`,
          };
          const signature = await signSimulatorCallback(
            options.signingKey,
            fields,
            context.clock.now(),
          );
          await context.deliverCallback({
            query: { ...fields, signature },
            body: undefined,
            headers: {},
          });
        }, options.delayMs);
        timer.unref();
        timers.add(timer);
      }
      return { ok: true, providerReference: reference, ussdCode: '*126#', operator: null };
    },

    getStatus,

    async findTransaction(query: TransactionQuery): Promise<ProviderEvent | null> {
      const reference = await options.ledger.find(query.paymentId);
      return reference ? getStatus(reference) : null;
    },

    async parseCallback(input: CallbackInput): Promise<CallbackResult> {
      const source =
        input.body && typeof input.body === 'object' && !Array.isArray(input.body)
          ? (input.body as Record<string, unknown>)
          : input.query;
      const { signature, ...raw } = source;
      if (typeof signature !== 'string') return { ok: false, reason: 'INVALID_SIGNATURE', raw };
      try {
        const { payload } = await jwtVerify(signature, key, {
          algorithms: ['HS256'],
          currentDate: context.clock.now(),
          clockTolerance: CALLBACK_CLOCK_TOLERANCE_S,
          requiredClaims: ['iat'],
          maxTokenAge: CALLBACK_MAX_AGE_S,
        });
        if (SIGNED_FIELDS.some((f) => payload[f] !== raw[f])) {
          return { ok: false, reason: 'INVALID_SIGNATURE', raw };
        }
      } catch {
        return { ok: false, reason: 'INVALID_SIGNATURE', raw };
      }
      const status = raw.status;
      if (status !== 'SUCCESSFUL' && status !== 'FAILED' && status !== 'PENDING') {
        return { ok: false, reason: 'MALFORMED', raw };
      }
      const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
      const amount = Number(raw.amount);
      // A success must say what was paid: a signature over an absent amount proves nothing.
      const amountGiven = typeof raw.amount === 'string' && raw.amount.trim() !== '';
      if (
        status === 'SUCCESSFUL' &&
        (!amountGiven || !Number.isFinite(amount) || !str(raw.currency))
      ) {
        return { ok: false, reason: 'MALFORMED', raw };
      }
      return {
        ok: true,
        raw,
        event: {
          providerReference: str(raw.reference),
          paymentId: str(raw.external_reference),
          status,
          amount: Number.isFinite(amount) && raw.amount !== '' ? amount : null,
          currency: str(raw.currency),
          operator: str(raw.operator),
          operatorReference: str(raw.operator_reference),
          code: str(raw.code),
        },
      };
    },

    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
  return provider;
}
