import type { BoardJoinCode } from '@qless/contract';
import { useEffect, useRef, useState } from 'react';
import { ApiError, isAbort } from '../../../lib/api-client';
import type { FeedStatus } from '../../../lib/live-feed';
import { getBoardJoinCode } from '../api/queue-public';
import {
  JOIN_CODE_RETRY_MS,
  joinCodeRefreshIn,
  joinCodeStaleIn,
  shownJoinCode,
} from '../lib/board-join-code';

/**
 * The code the board shows in the hall (decision 125), or null, and what to text to join by SMS
 * today (decision 136), or null: asked with the board's token
 * at start, again when its window ends (the hub pushes queue changes only) and after each
 * reconnection of the board's socket. `serverNow`: the server's clock as the board reads it.
 */
export function useBoardJoinCode(
  token: string,
  status: FeedStatus,
  serverNow: () => number,
): { code: string | null; sms: { text: string; number: string } | null } {
  const [answer, setAnswer] = useState<BoardJoinCode | null>(null);
  const [round, setRound] = useState(0);
  const [, setStale] = useState(0);
  const previous = useRef(status);
  const clock = useRef(serverNow);
  clock.current = serverNow;

  useEffect(() => {
    if (previous.current === 'reconnecting' && status === 'live') setRound((n) => n + 1);
    previous.current = status;
  }, [status]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: round asks again on reconnection
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = () => {
      getBoardJoinCode(token, controller.signal).then(
        (next: BoardJoinCode | null) => {
          if (controller.signal.aborted) return;
          // Not an answer of ours (a proxy's page, an empty body): asked again later.
          if (typeof next?.changes_at !== 'string') {
            timer = setTimeout(ask, JOIN_CODE_RETRY_MS);
            return;
          }
          setAnswer(next);
          timer = setTimeout(ask, joinCodeRefreshIn(next.changes_at, clock.current()));
        },
        (error: unknown) => {
          if (controller.signal.aborted || isAbort(error)) return;
          // A dead link: the board says so itself; nothing more to ask.
          if (error instanceof ApiError && error.status === 404) return setAnswer(null);
          timer = setTimeout(ask, JOIN_CODE_RETRY_MS);
        },
      );
    };
    ask();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [token, round]);

  // A code that could not be renewed leaves the screen on its own.
  useEffect(() => {
    if (!answer?.code) return;
    const timer = setTimeout(
      () => setStale((n) => n + 1),
      joinCodeStaleIn(answer, clock.current()) + 50,
    );
    return () => clearTimeout(timer);
  }, [answer]);

  return { code: shownJoinCode(answer, serverNow()), sms: answer?.sms ?? null };
}
