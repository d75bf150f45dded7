import type { PaymentStatusMessage } from '@qless/contract';
import { BOOKING_KEY_HEADER } from '@qless/contract/core';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/**
 * Releases this device's PENDING payment and its hold at once. Answers the payment's status
 * (FAILED, CANCELLED_BY_CUSTOMER); 409 PAYMENT_NOT_PENDING when it settled meanwhile.
 */
export function cancelPayment(paymentId: string, accessKey: string): Promise<PaymentStatusMessage> {
  return apiFetch<PaymentStatusMessage>(apiPaths.paymentCancel(paymentId), {
    method: 'POST',
    headers: { [BOOKING_KEY_HEADER]: accessKey },
  });
}
