import type { Db, PaymentRow } from '../../db/schema.js';
import type { HoldLimits, HoldRequest } from '../../limits/hold-limits.js';
import { FAILURE_CODES } from './failure-codes.js';
import type { PaymentStateMachine } from './payment-state-machine.js';

/** The failure code of a payment replaced by a newer start from the same number. */
export const SUPERSEDED = FAILURE_CODES.SUPERSEDED;

/**
 * Who may hold seats. A phone number has at most one pending payment: a new start replaces
 * the older one, so nobody can lock a customer's number by starting payments with it; the
 * same start repeated is answered with the pending one, so a repeat sends no new prompt to
 * the phone. How many holds one client may have, and how many prompts one number may get,
 * is the limits module's (limits/hold-limits.ts).
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

  /**
   * The number's pending payment that this request repeats: the same request (everything
   * the customer chose, `print`) from the same client address, its hold still live. A
   * request from elsewhere, or with another name or e-mail, is a new start: answering it
   * with the pending payment would hand its id and booking key (the ticket, once paid) to
   * whoever knows the number and the slot.
   */
  async pendingRepeat(
    trx: Db,
    request: HoldRequest,
    print: string,
    now: Date,
  ): Promise<{ payment: PaymentRow; holdExpiresAt: Date | null } | undefined> {
    const row = await trx
      .selectFrom('payments as p')
      .innerJoin('bookings as b', 'b.id', 'p.booking_id')
      .selectAll('p')
      .select('b.hold_expires_at')
      .where('p.phone_number', '=', request.phone)
      .where('p.status', '=', 'PENDING')
      .where('p.request_fingerprint', '=', print)
      .where('b.client_address', '=', request.clientAddress)
      .where('b.status', '=', 'held')
      .where('b.hold_expires_at', '>', now)
      .orderBy('p.created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return undefined;
    const { hold_expires_at: holdExpiresAt, ...payment } = row;
    return { payment, holdExpiresAt };
  }

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
