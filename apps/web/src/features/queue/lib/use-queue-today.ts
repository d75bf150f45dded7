import type { QueueTodayResponse } from '@qless/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbort } from '../../../lib/api-client';
import { getQueueToday } from '../api/queue-api';

/** How often the counter screen reads the queue again while it is on screen. */
export const QUEUE_POLL_MS = 4000;

export interface QueueTodayState {
  today: QueueTodayResponse | null;
  /** The last read failed (the screen keeps showing the previous answer). */
  error: unknown;
  /** Reads the queue now (after an action); resolves when the answer is in. */
  reload: () => Promise<void>;
}

/**
 * The organization's queue now, read every few seconds while the page is visible and at
 * once after each action: a plain poll (a few hundred bytes a read) serves a desk as well as
 * a socket would, and keeps working across proxies that drop sockets.
 */
export function useQueueToday(pollMs = QUEUE_POLL_MS): QueueTodayState {
  const [today, setToday] = useState<QueueTodayResponse | null>(null);
  const [error, setError] = useState<unknown>(null);
  const inFlight = useRef<AbortController | null>(null);
  const alive = useRef(true);

  const reload = useCallback(async () => {
    // The newest read wins: an older one still on its way is dropped.
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    try {
      const answer = await getQueueToday(controller.signal);
      if (!alive.current || controller.signal.aborted) return;
      setToday(answer);
      setError(null);
    } catch (failure) {
      if (isAbort(failure) || !alive.current) return;
      setError(failure);
    }
  }, []);

  useEffect(() => {
    alive.current = true;
    void reload();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, pollMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void reload();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      alive.current = false;
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      inFlight.current?.abort();
    };
  }, [reload, pollMs]);

  return { today, error, reload };
}
