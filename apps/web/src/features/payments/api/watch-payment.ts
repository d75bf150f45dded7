import type { PaymentStatusMessage } from '@qless/contract';
import { useEffect, useRef } from 'react';
import { apiPaths } from '../../../lib/api-paths';
import { followFeed, socketUrl } from '../../../lib/live-feed';
import { getPaymentStatus } from './get-payment-status';

export const POLL_INTERVAL_MS = 2000;

export function statusSocketUrl(paymentId: string, loc: Pick<Location, 'protocol' | 'host'>) {
  return socketUrl(apiPaths.paymentStatusSocket(paymentId), loc);
}

function isStatusMessage(value: unknown): value is PaymentStatusMessage {
  const status = (value as { status?: unknown } | null)?.status;
  return status === 'PENDING' || status === 'SUCCESSFUL' || status === 'FAILED';
}

const isFinal = (m: PaymentStatusMessage) => m.status !== 'PENDING';

/**
 * Follows a payment until it is final: the status WebSocket (its first frame is the status
 * now), reconnected by the one policy of live sockets (lib/live-feed: at once after a deploy's
 * 1012), and GET /api/v1/payment/{id} every 2 s while it is down.
 */
export function watchPayment(
  paymentId: string,
  onMessage: (message: PaymentStatusMessage) => void,
): () => void {
  return followFeed({
    socketPath: apiPaths.paymentStatusSocket(paymentId),
    fetchOnce: (signal) => getPaymentStatus(paymentId, signal),
    read: (data) => (isStatusMessage(data) ? data : null),
    onState: onMessage,
    pollMs: POLL_INTERVAL_MS,
    isFinal,
  });
}

/** React binding: follows `paymentId` while it is set; stops on unmount. */
export function usePaymentStatus(
  paymentId: string | null,
  onMessage: (message: PaymentStatusMessage) => void,
): void {
  const handler = useRef(onMessage);
  handler.current = onMessage;
  useEffect(() => {
    if (!paymentId) return;
    return watchPayment(paymentId, (m) => handler.current(m));
  }, [paymentId]);
}
