import type { Db } from '../../db/schema.js';
import type { HoldLimits, HoldRequest } from '../../limits/hold-limits.js';
import { FAILURE_CODES } from './failure-codes.js';
import type { PaymentStateMachine } from './payment-state-machine.js';

/** The failure code of a payment replaced by a newer start from the same number. */
export const SUPERSEDED = FAILURE_CODES.SUPERSEDED;

/**
 * Who may hold seats. A phone number has at most one pending payment: a new start replaces
 * the older one, so nobody can lock a customer's number by starting payments with it. How
 * many holds one client may have is the limits module's (limits/hold-limits.ts).
 *
 * Every step runs in the hold's transaction, under the phone's lock, which every start takes
 * first: a start refused at any point (a limit, a seat taken meanwhile, a lost race) rolls
 * back with it and changes nothing, the number's earlier hold included (decision 017).
 */
export class InitiationAdmission {
  constructor(
    private readonly stateMachine: PaymentStateMachine,
    private readonly limits: HoldLimits,
  ) {}

  /** Every limit, under the client's lock (starts from one client address take turns). */
  async check(trx: Db, request: HoldRequest, now: Date): Promise<void> {
    await this.limits.lockClient(trx, request.clientAddress);
    await this.limits.admit(trx, request, now);
  }

  /**
   * Fails the number's pending payments, their holds with them, in the transaction that
   * then places the new hold: undone if that hold is not placed.
   */
  async replaceEarlier(trx: Db, request: HoldRequest): Promise<void> {
    for (const id of await pendingForPhone(trx, request.phone, request.reference)) {
      await this.stateMachine.failPendingIn(trx, id, SUPERSEDED, {
        source: 'initiation',
        outcome: 'superseded',
        payload: { reason: 'a newer payment was started for this number' },
      });
    }
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
