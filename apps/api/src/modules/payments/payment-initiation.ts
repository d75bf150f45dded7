import { createHash } from 'node:crypto';
import {
  CURRENCY,
  PAYMENT_DESCRIPTION,
  type Payment,
  type PaymentInitiateInput,
  PLATFORM_FEE_XAF,
} from '@qless/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { BookingAccess } from '../../core/access/booking-access.js';
import type { Clock } from '../../core/clock.js';
import type { DB, PaymentRow } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../errors.js';
import type { HoldLimits, HoldRequest } from '../../limits/hold-limits.js';
import type { CollectResult, PaymentProvider } from '../../providers/provider.js';
import {
  type BookingsService,
  type InitiationView,
  slotTaken,
} from '../bookings/bookings.module.js';
import { collectFailureCode } from './failure-codes.js';
import { InitiationAdmission } from './initiation-admission.js';
import { InitiationQueue } from './initiation-queue.js';
import type { PaymentStateMachine } from './payment-state-machine.js';
import { toPayment } from './payment-status.js';
import {
  findPaymentByReference,
  insertPayment,
  lockPhone,
  recordPaymentEvent,
  saveCollectResult,
} from './payments.repository.js';

export interface InitiationDeps {
  db: Kysely<DB>;
  clock: Clock;
  provider: PaymentProvider;
  bookings: BookingsService;
  stateMachine: PaymentStateMachine;
  holdLimits: HoldLimits;
  log: FastifyBaseLogger;
  access: BookingAccess;
}

type Replayed = { payment: Payment; created: false };

type CollectFailure = Exclude<CollectResult, { ok: true }>;

const FAILURE_STATUS: Record<CollectFailure['code'], number> = {
  INVALID_PHONE: 400,
  PAYMENT_DECLINED: 402,
  PROVIDER_UNAVAILABLE: 502,
};

/** Two requests are the same request when everything the customer chose is the same. */
function fingerprint(input: PaymentInitiateInput): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        input.cus_name,
        input.cus_email.toLowerCase(),
        input.phone_number,
        input.service_id,
        input.slot_id,
        input.date,
      ]),
    )
    .digest('hex');
}

/**
 * POST /payment/initiate: the only way to create a booking. Checks the price, holds a seat
 * and records the payment in one transaction, then asks the provider to collect.
 * Idempotent on the client's reference.
 */
export class PaymentInitiation {
  private readonly admission: InitiationAdmission;
  private readonly queue: InitiationQueue;
  constructor(private readonly deps: InitiationDeps) {
    this.admission = new InitiationAdmission(deps.stateMachine, deps.holdLimits);
    this.queue = new InitiationQueue((slot, initiations) =>
      deps.bookings.readForInitiations(slot, initiations, deps.clock.now()),
    );
  }

  /** The payment, and whether this call created it (false: a replay of the same request). */
  async initiate(
    input: PaymentInitiateInput,
    client: { clientAddress: string },
  ): Promise<{ payment: Payment; created: boolean }> {
    const { db } = this.deps;
    if (input.amount !== PLATFORM_FEE_XAF) {
      throw new AppError(
        400,
        'AMOUNT_MISMATCH',
        `The platform fee is ${PLATFORM_FEE_XAF} ${CURRENCY}; the request said ${input.amount}.`,
      );
    }
    if (input.currency.toUpperCase() !== CURRENCY) {
      throw new AppError(400, 'CURRENCY_MISMATCH', `Payments are in ${CURRENCY}.`);
    }
    const print = fingerprint(input);
    const held = await this.queue.run(
      { serviceId: input.service_id, slotId: input.slot_id, date: input.date },
      { phone: input.phone_number, reference: input.reference },
      (view) => this.hold(input, print, client, view),
    );
    if ('replayed' in held) return held.replayed;
    const { payment, holdExpiresAt } = held;
    const result = await this.collect(payment);
    if (!result.ok && result.uncertain) {
      // The payer may get the prompt and pay: keep the hold and the pending payment; the
      // reconciler looks the transaction up by our payment id.
      await recordPaymentEvent(db, {
        paymentId: payment.id,
        provider: this.deps.provider.name,
        source: 'callback',
        signatureValid: true,
        outcome: 'collect_uncertain',
        payload: { code: result.code, provider_code: result.providerCode },
      });
      return { payment: this.toPayment(payment, holdExpiresAt), created: true };
    }
    if (!result.ok) {
      await this.deps.stateMachine.failPending(payment.id, collectFailureCode(result), {
        source: 'callback',
        outcome: 'collect_refused',
        payload: { code: result.code, provider_code: result.providerCode },
      });
      throw new AppError(FAILURE_STATUS[result.code], result.code, result.message);
    }
    const updated = await saveCollectResult(db, payment.id, result);
    return { payment: this.toPayment(updated, holdExpiresAt), created: true };
  }

  /**
   * Holds a seat with its pending payment, from what the initiation queue read just before
   * this initiation's turn (`view`); or answers with the payment of a replayed request.
   */
  private async hold(
    input: PaymentInitiateInput,
    print: string,
    client: { clientAddress: string },
    view: InitiationView,
  ): Promise<{ payment: PaymentRow; holdExpiresAt: Date } | { replayed: Replayed }> {
    const { db, clock, bookings } = this.deps;
    const now = clock.now();
    // A reference already used: a replay answers with its payment whatever became of the slot.
    if (view.knownReference) {
      const replay = await this.replay(input.reference, print);
      if (replay) return { replayed: replay };
    }
    const bookable = view.bookable();
    // A full slot is refused before any limit, lock or transaction: the number's earlier
    // payment is kept, since this initiation could not have replaced it.
    if (view.takenByOthers) throw slotTaken();
    const request: HoldRequest = {
      reference: input.reference,
      phone: input.phone_number,
      clientAddress: client.clientAddress,
      serviceId: input.service_id,
      slotId: input.slot_id,
      date: input.date,
    };
    try {
      return await db.transaction().execute(async (trx) => {
        // Phone, then client address, then slot: every writer takes these locks in this order.
        await lockPhone(trx, input.phone_number);
        // The same start again (a double tap, a retry with a new reference, a script): its
        // pending payment answers, as a replay by reference does, and no new prompt goes to
        // the phone.
        const repeat = await this.admission.pendingRepeat(trx, request, print, now);
        if (repeat) {
          const replayed: Replayed = {
            payment: this.toPayment(repeat.payment, repeat.holdExpiresAt),
            created: false,
          };
          return { replayed };
        }
        await this.admission.check(trx, request, now);
        // A new initiation replaces the number's earlier pending payment and frees its seat,
        // in this transaction: if the new hold is not placed, the earlier one stands.
        await this.admission.replaceEarlier(trx, request);
        const hold = await bookings.placeHold(
          trx,
          bookable,
          {
            cus_name: input.cus_name,
            cus_email: input.cus_email,
            phone_number: input.phone_number,
            client_address: client.clientAddress,
            locale: input.locale ?? 'en',
          },
          now,
        );
        const payment = await insertPayment(
          trx,
          {
            booking_id: hold.bookingId,
            reference: input.reference,
            request_fingerprint: print,
            provider: this.deps.provider.name,
            amount: PLATFORM_FEE_XAF,
            currency: CURRENCY,
            phone_number: input.phone_number,
          },
          now,
        );
        return { payment, holdExpiresAt: hold.holdExpiresAt };
      });
    } catch (error) {
      const lostRace =
        isUniqueViolation(error, 'bookings_active_seat_uq') ||
        isUniqueViolation(error, 'payments_reference_key') ||
        (error instanceof AppError && error.code === 'SLOT_TAKEN');
      if (lostRace) {
        // The same request sent twice at once (double tap, retry): the twin won.
        const again = await this.replay(input.reference, print);
        if (again) return { replayed: again };
        throw slotTaken();
      }
      throw error;
    }
  }

  private toPayment(row: PaymentRow, holdExpiresAt: Date | null): Payment {
    return toPayment(row, holdExpiresAt, this.deps.access.keyFor(row.booking_id));
  }

  private async replay(
    reference: string,
    print: string,
  ): Promise<{ payment: Payment; created: false } | null> {
    const existing = await findPaymentByReference(this.deps.db, reference);
    if (!existing) return null;
    if (existing.request_fingerprint !== print) {
      throw new AppError(
        409,
        'REFERENCE_CONFLICT',
        'This payment reference was already used for a different request.',
      );
    }
    const hold = await this.deps.bookings.holdExpiry(existing.booking_id);
    return { payment: this.toPayment(existing, hold), created: false };
  }

  private async collect(payment: PaymentRow): Promise<CollectResult> {
    try {
      return await this.deps.provider.collect({
        paymentId: payment.id,
        amount: payment.amount,
        currency: payment.currency,
        phone: payment.phone_number,
        // Our id in the description too: a provider's history may not show the external
        // reference, and a transaction whose collect answer was lost is found by it.
        description: `${PAYMENT_DESCRIPTION} ${payment.id}`,
      });
    } catch (err) {
      this.deps.log.error({ err, paymentId: payment.id }, 'provider collect threw');
      return {
        uncertain: true,
        ok: false,
        code: 'PROVIDER_UNAVAILABLE',
        message: 'Mobile money payments are unavailable right now. Please try again in a moment.',
        providerCode: 'EXCEPTION',
      };
    }
  }
}
