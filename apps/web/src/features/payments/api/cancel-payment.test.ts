import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { cancelPayment } from './cancel-payment';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Against a stub of POST /api/v1/payment/{id}/cancel (the route lives in the API).
function stub(status: number, body: unknown) {
  const fetch = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetch);
  vi.spyOn(console, 'error').mockImplementation(() => {});
  return fetch;
}

describe('cancelPayment', () => {
  it('posts to the payment’s cancel route with the device’s key and answers its status', async () => {
    const released = {
      status: 'FAILED',
      booking_id: 'b1',
      ticket: null,
      failure_code: 'CANCELLED_BY_CUSTOMER',
    };
    const fetch = stub(200, released);
    await expect(cancelPayment('p 1', 'key-1')).resolves.toEqual(released);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/payment/p%201/cancel');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBeNull();
    expect(init?.headers).toMatchObject({ 'x-booking-key': 'key-1' });
  });

  it('rejects with PAYMENT_NOT_PENDING when the payment settled first', async () => {
    stub(409, { code: 'PAYMENT_NOT_PENDING', message: 'This payment is no longer pending.' });
    const error = await cancelPayment('p1', 'key-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'PAYMENT_NOT_PENDING' });
  });
});
