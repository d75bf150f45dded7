import type { Payment, PaymentInitiateRequest, PaymentResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

export async function initiatePayment(request: PaymentInitiateRequest): Promise<Payment> {
  const body = await apiFetch<PaymentResponse>(apiPaths.paymentInitiate(), {
    method: 'POST',
    body: request,
  });
  return body.payment;
}
