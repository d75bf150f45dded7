import type { Payment, PaymentStatusMessage } from '@qless/contract';
import type { Db, PaymentRow } from '../../db/schema.js';
import type { TicketSigner } from '../tickets/tickets.module.js';
import { findTicketByBooking, isTicketValid, toTicket } from '../tickets/tickets.module.js';
import { findPaymentById } from './payments.repository.js';

export function toPayment(row: PaymentRow, holdExpiresAt: Date | null, accessKey: string): Payment {
  return {
    payment_id: row.id,
    status: row.status,
    booking_id: row.booking_id,
    amount: row.amount,
    currency: row.currency,
    provider: row.provider,
    hold_expires_at: (holdExpiresAt ?? row.created_at).toISOString(),
    ussd_code: row.ussd_code,
    operator: row.operator,
    access_key: accessKey,
  };
}

/**
 * What the payer sees of a payment: GET /payment/{id} and every status-socket message.
 * The ticket comes with it once the booking is confirmed.
 */
export async function readPaymentStatus(
  db: Db,
  signer: TicketSigner,
  paymentId: string,
): Promise<PaymentStatusMessage | null> {
  const payment = await findPaymentById(db, paymentId);
  if (!payment) return null;
  let ticket: PaymentStatusMessage['ticket'] = null;
  if (payment.status === 'SUCCESSFUL') {
    const record = await findTicketByBooking(db, payment.booking_id);
    if (record?.ticket_code && isTicketValid(record.status)) {
      ticket = await toTicket(signer, record, { reveal: true });
    }
  }
  return {
    status: payment.status,
    booking_id: payment.booking_id,
    ticket,
    failure_code:
      payment.status === 'FAILED'
        ? payment.failure_code
        : payment.needs_refund
          ? 'REFUND_DUE'
          : null,
  };
}
