import type { Payment, PaymentInitiateRequest, PaymentResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';

export async function initiatePayment(request: PaymentInitiateRequest): Promise<Payment> {
  const body = await apiFetch<PaymentResponse>('/api/v1/payment/initiate', {
    method: 'POST',
    body: request,
  });
  return body.payment;
}
