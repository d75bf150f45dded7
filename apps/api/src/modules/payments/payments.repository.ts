import type { EventSource, ProviderName, RecordedOutcome } from '@qless/contract';
import { sql } from 'kysely';
import type { Db, PaymentRow, PaymentsTable } from '../../db/schema.js';
import { storableText, storableValue } from '../../db/storable.js';
import { currentRequestId } from '../../request-context.js';
import { PAYMENT_CHANNEL } from './payment-events.js';

export function findPaymentById(db: Db, id: string, lock = false): Promise<PaymentRow | undefined> {
  let q = db.selectFrom('payments').selectAll().where('id', '=', id);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export function findPaymentByReference(db: Db, reference: string): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('reference', '=', reference)
    .executeTakeFirst();
}

export function findPaymentByProviderReference(
  db: Db,
  provider: ProviderName,
  providerReference: string,
): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_reference', '=', providerReference)
    .forUpdate()
    .executeTakeFirst();
}

/** Serializes initiations for one phone number so the per-phone limit holds under bursts. */
export async function lockPhone(db: Db, phone: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`phone:${phone}`}))`.execute(db);
}

export type NewPayment = Pick<
  PaymentsTable,
  | 'booking_id'
  | 'reference'
  | 'request_fingerprint'
  | 'provider'
  | 'amount'
  | 'currency'
  | 'phone_number'
>;

export function insertPayment(db: Db, payment: NewPayment, now: Date): Promise<PaymentRow> {
  return db
    .insertInto('payments')
    .values({
      ...payment,
      status: 'PENDING',
      created_at: now,
      updated_at: now,
      // The initiating request's id: the reconciler and the callbacks log it (decision 029).
      request_id: currentRequestId(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function saveCollectResult(
  db: Db,
  paymentId: string,
  result: { providerReference: string; ussdCode: string | null; operator: string | null },
): Promise<PaymentRow> {
  return db
    .updateTable('payments')
    .set({
      provider_reference: result.providerReference,
      ussd_code: result.ussdCode,
      operator: result.operator,
    })
    .where('id', '=', paymentId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * PENDING → a final status, once; `refundReason` records money we must give back,
 * `operator` what the operator named the transfer. Every process hears of the change
 * (pg_notify, delivered at commit) from the same statement: one round trip, not three.
 */
export async function markSettled(
  db: Db,
  paymentId: string,
  settlement: {
    status: 'SUCCESSFUL' | 'FAILED';
    failureCode: string | null;
    refundReason?: string;
    operator?: { reference: string; name: string | null };
  },
  now: Date,
): Promise<void> {
  await db
    .updateTable('payments')
    .set({
      status: settlement.status,
      failure_code: settlement.status === 'FAILED' ? settlement.failureCode : null,
      settled_at: now,
      updated_at: now,
      ...(settlement.refundReason
        ? { needs_refund: true, refund_reason: settlement.refundReason }
        : {}),
      ...(settlement.operator
        ? {
            operator_reference: storableText(settlement.operator.reference),
            operator:
              settlement.operator.name === null ? null : storableText(settlement.operator.name),
          }
        : {}),
    })
    .where('id', '=', paymentId)
    .returning(sql<string>`pg_notify(${PAYMENT_CHANNEL}, id::text)`.as('notified'))
    .execute();
}

export async function flagRefund(
  db: Db,
  paymentId: string,
  reason: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('payments')
    .set({ needs_refund: true, refund_reason: reason, updated_at: now })
    .where('id', '=', paymentId)
    .execute();
}

export async function recordPaymentEvent(
  db: Db,
  event: {
    paymentId: string | null;
    provider: ProviderName;
    source: EventSource;
    signatureValid: boolean;
    outcome: RecordedOutcome;
    payload: Record<string, unknown>;
  },
): Promise<void> {
  await db
    .insertInto('payment_events')
    .values({
      payment_id: event.paymentId,
      provider: event.provider,
      source: event.source,
      signature_valid: event.signatureValid,
      outcome: event.outcome,
      payload: storablePayload(event.payload, event.signatureValid ? 16_384 : 2_048),
    })
    .execute();
}

/**
 * jsonb refuses NULs and unpaired surrogates, and rejected callbacks are attacker-controlled:
 * clean every value (not the JSON text) and keep at most `maxChars` of the payload.
 */
function storablePayload(payload: Record<string, unknown>, maxChars: number): string {
  const text = JSON.stringify(storableValue(payload));
  if (text.length <= maxChars) return text;
  // The cut may split a surrogate pair: clean the kept part again.
  return JSON.stringify({ truncated: storableText(text.slice(0, maxChars)) });
}

/** The provider's reference learned after the fact (a lookup after a lost collect answer). */
export async function saveProviderReference(
  db: Db,
  paymentId: string,
  providerReference: string,
): Promise<void> {
  await db
    .updateTable('payments')
    .set({ provider_reference: providerReference })
    .where('id', '=', paymentId)
    .where('provider_reference', 'is', null)
    .execute();
}

/** Flags a payment for an operator: its outcome could not be learned from the provider. */
export async function flagReview(
  db: Db,
  paymentId: string,
  reason: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('payments')
    .set({ needs_review: true, review_reason: reason, updated_at: now })
    .where('id', '=', paymentId)
    .execute();
}

/**
 * Hands back payments claimed for a status check at `claimedAt` that this process will not
 * check (it is shutting down): each gets back the `last_checked_at` it had before the claim,
 * so the next sweep of any process checks it at once rather than after RECONCILE_AFTER_MS.
 * A payment settled or claimed again since is left alone. Returns how many were handed back.
 */
export async function releasePaymentClaims(
  db: Db,
  claims: { id: string; previous: Date | null; claimedAt: Date }[],
): Promise<number> {
  if (claims.length === 0) return 0;
  const values = sql.join(
    claims.map(
      (c) => sql`(${c.id}::uuid, ${c.previous}::timestamptz, ${c.claimedAt}::timestamptz)`,
    ),
  );
  const released = await sql<{ id: string }>`
    update payments as p set last_checked_at = v.previous
    from (values ${values}) as v(id, previous, claimed_at)
    where p.id = v.id and p.status = 'PENDING' and p.last_checked_at = v.claimed_at
    returning p.id`.execute(db);
  return released.rows.length;
}

/**
 * Pending payments due for a status check (neither created nor checked within
 * `olderThanMs`), least recently looked at first, claimed so that concurrent sweepers skip
 * them; the caller commits the claim at once, and `last_checked_at` keeps them from other
 * sweepers until they are due again. Reads payments_due_idx (migration 011).
 */
export async function claimPaymentsToCheck(
  db: Db,
  now: Date,
  olderThanMs: number,
  limit: number,
): Promise<PaymentRow[]> {
  const cutoff = new Date(now.getTime() - olderThanMs);
  const lastLook = sql<Date>`coalesce(last_checked_at, created_at)`;
  const rows = await db
    .selectFrom('payments')
    .selectAll()
    .where('status', '=', 'PENDING')
    .where(lastLook, '<=', cutoff)
    // Equivalent unless a clock ran backwards; kept so that never claims a fresh payment.
    .where('created_at', '<=', cutoff)
    .orderBy(lastLook)
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (rows.length > 0) {
    await db
      .updateTable('payments')
      .set({ last_checked_at: now })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
  }
  return rows;
}
