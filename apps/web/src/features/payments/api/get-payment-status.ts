import type { PaymentStatusMessage } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

export function getPaymentStatus(
  paymentId: string,
  signal?: AbortSignal,
): Promise<PaymentStatusMessage> {
  return apiFetch<PaymentStatusMessage>(apiPaths.payment(paymentId), { signal });
}
