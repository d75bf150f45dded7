import type { PaymentStatusMessage } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';

export function getPaymentStatus(
  paymentId: string,
  signal?: AbortSignal,
): Promise<PaymentStatusMessage> {
  return apiFetch<PaymentStatusMessage>(`/api/v1/payment/${encodeURIComponent(paymentId)}`, {
    signal,
  });
}
