import type { Kysely } from 'kysely';
import type { DB, Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { HoldLimits, HoldRequest } from '../../limits/hold-limits.js';
import { FAILURE_CODES } from './failure-codes.js';
import type { PaymentStateMachine } from './payment-state-machine.js';

/** The failure code of a payment replaced by a newer start from the same number. */
export const SUPERSEDED = FAILURE_CODES.SUPERSEDED;

/**
 * Who may hold seats. A phone number has at most one pending payment: a new start replaces
 * the older one, so nobody can lock a customer's number by starting payments with it. How
 * many holds one client may have is the limits module's (limits/hold-limits.ts).
 */
export class InitiationAdmission {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly stateMachine: PaymentStateMachine,
    private readonly limits: HoldLimits,
  ) {}

  /**
   * Before the hold's transaction: checks the limits (unlocked, so that a start refused
   * releases nothing), then fails the number's pending payments, their holds with them.
   * The same request replayed never gets here (idempotent reference).
   */
  async replaceEarlier(request: HoldRequest, now: Date): Promise<void> {
    await this.limits.admit(this.db, request, now);
    for (const id of await pendingForPhone(this.db, request.phone, request.reference)) {
      await this.stateMachine.failPending(id, SUPERSEDED, {
        source: 'initiation',
        outcome: 'superseded',
        payload: { reason: 'a newer payment was started for this number' },
      });
    }
  }

  /** In the hold's transaction, after the phone lock: every limit again, now under locks. */
  async check(trx: Db, request: HoldRequest, now: Date): Promise<void> {
    // A start for this number that came between the release and the phone lock.
    if ((await pendingForPhone(trx, request.phone, request.reference)).length > 0) {
      throw new AppError(
        409,
        'PAYMENT_IN_PROGRESS',
        'Another payment for this number has just started. Approve or cancel it on the phone, then try again.',
      );
    }
    await this.limits.lockClient(trx, request.clientAddress);
    await this.limits.admit(trx, request, now);
  }
}

async function pendingForPhone(db: Db, phone: string, exceptReference: string): Promise<string[]> {
  const rows = await db
    .selectFrom('payments')
    .select('id')
    .where('phone_number', '=', phone)
    .where('status', '=', 'PENDING')
    .where('reference', '<>', exceptReference)
    .execute();
  return rows.map((r) => r.id);
}
