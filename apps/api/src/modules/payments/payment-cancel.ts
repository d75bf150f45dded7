import type { PaymentStatusMessage } from '@qless/contract';
import type { BookingAccess } from '../../core/access/booking-access.js';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { assertKeyHolder } from '../bookings/bookings.module.js';
import type { TicketSigner } from '../tickets/tickets.module.js';
import { FAILURE_CODES } from './failure-codes.js';
import type { PaymentStateMachine } from './payment-state-machine.js';
import { readPaymentStatus } from './payment-status.js';
import { findPaymentById } from './payments.repository.js';

/**
 * POST /payment/{id}/cancel: the customer gives up a payment still PENDING (a number that
 * never settles, another number to use). It fails through the state machine like any
 * other failure, so its hold is released at once and the status socket says FAILED. Only
 * the holder of the booking's access key may. The provider cannot be told to stop: should
 * the customer still approve it on the phone, the success is recorded for refund.
 */
export async function cancelPendingPayment(
  deps: { db: Db; stateMachine: PaymentStateMachine; access: BookingAccess; signer: TicketSigner },
  paymentId: string,
  key: string | undefined,
): Promise<PaymentStatusMessage> {
  const { db, stateMachine, access, signer } = deps;
  const payment = await findPaymentById(db, paymentId);
  if (!payment) throw new AppError(404, 'PAYMENT_NOT_FOUND', 'No such payment.');
  assertKeyHolder(access, payment.booking_id, key, 'payment');
  const failed = await stateMachine.failPending(payment.id, FAILURE_CODES.CANCELLED_BY_CUSTOMER, {
    source: 'customer',
    outcome: 'cancelled_by_customer',
    payload: { reason: 'cancelled by the customer while pending' },
  });
  if (!failed) {
    throw new AppError(409, 'PAYMENT_NOT_PENDING', 'This payment has already been settled.');
  }
  const status = await readPaymentStatus(db, signer, payment.id);
  if (!status) throw new AppError(404, 'PAYMENT_NOT_FOUND', 'No such payment.');
  return status;
}
