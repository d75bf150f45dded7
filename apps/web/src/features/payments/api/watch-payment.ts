import type { PaymentStatusMessage } from '@qless/contract';
import { useEffect, useRef } from 'react';
import { apiPaths } from '../../../lib/api-paths';
import { getPaymentStatus } from './get-payment-status';

export const POLL_INTERVAL_MS = 2000;

export function statusSocketUrl(paymentId: string, loc: Pick<Location, 'protocol' | 'host'>) {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}${apiPaths.paymentStatusSocket(paymentId)}`;
}

function isStatusMessage(value: unknown): value is PaymentStatusMessage {
  const status = (value as { status?: unknown } | null)?.status;
  return status === 'PENDING' || status === 'SUCCESSFUL' || status === 'FAILED';
}

const isFinal = (m: PaymentStatusMessage) => m.status !== 'PENDING';

/**
 * Follows a payment until it is final: the status WebSocket first (first message at once),
 * then, if the socket fails or closes early, GET /api/v1/payment/{id} every 2 s.
 */
export function watchPayment(
  paymentId: string,
  onMessage: (message: PaymentStatusMessage) => void,
): () => void {
  let stopped = false;
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const controller = new AbortController();

  const deliver = (message: PaymentStatusMessage) => {
    if (stopped) return;
    onMessage(message);
    if (isFinal(message)) stop();
  };

  const poll = async () => {
    if (stopped) return;
    try {
      deliver(await getPaymentStatus(paymentId, controller.signal));
    } catch {
      // Transient: keep polling; the modal stays on "Processing Payment".
    }
    if (!stopped) timer = setTimeout(poll, POLL_INTERVAL_MS);
  };

  let fallingBack = false;
  const fallback = () => {
    if (stopped || fallingBack) return;
    fallingBack = true;
    socket = null;
    void poll();
  };

  try {
    socket = new WebSocket(statusSocketUrl(paymentId, location));
    socket.onmessage = (event) => {
      try {
        const data: unknown = JSON.parse(String(event.data));
        if (isStatusMessage(data)) deliver(data);
      } catch {
        // Ignore a malformed frame; the next one or the fallback will tell.
      }
    };
    socket.onerror = fallback;
    socket.onclose = fallback;
  } catch {
    fallback();
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
    controller.abort();
    if (socket) {
      socket.onclose = null;
      socket.onerror = null;
      socket.onmessage = null;
      if (socket.readyState <= WebSocket.OPEN) socket.close();
      socket = null;
    }
  }
  return stop;
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
