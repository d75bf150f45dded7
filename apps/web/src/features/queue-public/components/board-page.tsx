import type { BoardSnapshot } from '@qless/contract';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { ApiError, isAbort } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { dropEmbedded, useEmbeddedData } from '../../../lib/embedded-data';
import { type FeedStatus, followFeed } from '../../../lib/live-feed';
import { boardQuery, getBoard, readBoard } from '../api/queue-public';
import {
  bannerCall,
  bannerUntil,
  callsOf,
  clockOffset,
  newestSeq,
  unseenCalls,
} from '../lib/board-calls';
import { callClips } from '../lib/call-clips';
import { type Announcer, createAnnouncer, unlockAudio } from '../lib/sound';
import { spokenCall } from '../lib/turn-text';
import { BoardView } from './board-view';
import { useBoardJoinCode } from './use-board-join-code';
import './board.css';

/** A board that lost its socket reads the state every 10 s until it is back. */
const POLL_MS = 10_000;

type Load =
  | { kind: 'loading' }
  | { kind: 'ready'; board: BoardSnapshot }
  | { kind: 'error'; notFound: boolean };

/**
 * The hall's screen (a TV or a cheap stick, 1920×1080 or 1280×720, read from across the
 * hall): who is called to which counter, the next numbers, the last calls. Numbers only.
 * Every call the screen has not seen is rung, shown in the banner and said, one after the
 * other, oldest first — two counters calling in the same second are two calls
 * (decision 119). A screen switched on later announces nothing old; the banner shows a call
 * only while the server says it is live and for BOARD_CALL_LIVE_SECONDS at most. It follows
 * the board socket for the day: one snapshot in state, no list that grows, one announcer
 * with a bounded line.
 */
export function BoardPage({ token }: { token: string }) {
  const { t } = useI18n();
  // The server rendered the board with its snapshot (2G: the hall's numbers paint from the
  // HTML, decision 112); the socket takes over from there.
  const embedded = useEmbeddedData();
  const [load, setLoad] = useState<Load>(() => {
    const body = embedded.api[boardQuery(token).path];
    const board = body === undefined ? null : readBoard(body);
    return board ? { kind: 'ready', board } : { kind: 'loading' };
  });
  const rendered = useRef(load.kind === 'ready' ? load.board : null);
  const [status, setStatus] = useState<FeedStatus>('connecting');
  const [soundOn, setSoundOn] = useState(false);
  /** Silent until the sound button is pressed: the calls still take their turns on screen. */
  const announcer = useRef<Announcer | null>(null);
  const soundButton = useRef<HTMLButtonElement>(null);
  /** The highest call seq this screen has seen (null: no snapshot yet). */
  const seen = useRef<number | null>(null);
  /** The latest snapshot, for a queued call asking whether it is still live. */
  const latest = useRef<BoardSnapshot | null>(null);
  /** The server's clock minus this screen's (the banner's time is the server's). */
  const offset = useRef(0);
  /** The call whose turn it is (or was last): the banner shows it while live. */
  const [bannerSeq, setBannerSeq] = useState<number | null>(null);
  /** Bumped when the banner's time is up, to render without it. */
  const [, setExpired] = useState(0);
  /** The code to join shown in the hall, when the organization asks for one (decision 125). */
  const joinBy = useBoardJoinCode(token, status, () => Date.now() + offset.current);

  useEffect(() => {
    const controller = new AbortController();
    let stopFeed: (() => void) | null = null;
    seen.current = null;
    announcer.current ??= createAnnouncer({ sound: false });
    const show = (board: BoardSnapshot) => {
      latest.current = board;
      offset.current = clockOffset(board, Date.now());
      const calls = callsOf(board);
      if (seen.current === null) {
        // Switched on now: nothing old is replayed; a call still live stands in the banner.
        setBannerSeq(calls.find((c) => c.live)?.seq ?? null);
      } else {
        for (const call of unseenCalls(calls, seen.current)) {
          const fr = callClips(call.number, call.counter_name, 'fr');
          const en = callClips(call.number, call.counter_name, 'en');
          announcer.current?.announce({
            ...spokenCall(call.number, call.counter_name),
            clips: fr && en ? { fr, en } : null,
            onStart: () => setBannerSeq(call.seq),
            stillWanted: () =>
              latest.current !== null &&
              callsOf(latest.current).some((c) => c.seq === call.seq && c.live),
          });
        }
      }
      seen.current = Math.max(seen.current ?? -1, newestSeq(calls));
      setLoad({ kind: 'ready', board });
    };
    const start = () => {
      stopFeed = followFeed({
        socketPath: apiPaths.boardSocket(token),
        fetchOnce: (signal) => getBoard(token, signal),
        read: readBoard,
        onState: show,
        onStatus: setStatus,
        pollMs: POLL_MS,
      });
    };
    const first = rendered.current;
    if (first) {
      rendered.current = null;
      dropEmbedded(boardQuery(token).path);
      show(first);
      start();
      return () => {
        controller.abort();
        stopFeed?.();
      };
    }
    getBoard(token, controller.signal).then(
      (board) => {
        if (controller.signal.aborted) return;
        show(board);
        start();
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbort(error)) return;
        const notFound = error instanceof ApiError && [400, 401, 403, 404].includes(error.status);
        setLoad({ kind: 'error', notFound });
        // A network failure at start: keep trying, the screen fills in once it answers.
        if (!notFound) start();
      },
    );
    return () => {
      controller.abort();
      stopFeed?.();
    };
  }, [token]);

  const board = load.kind === 'ready' ? load.board : null;
  const banner = board ? bannerCall(callsOf(board), bannerSeq, offset.current, Date.now()) : null;
  // The banner fades when its time is up, even if no message comes meanwhile.
  useEffect(() => {
    if (!banner) return;
    const wait = bannerUntil(banner, offset.current) - Date.now();
    const timer = setTimeout(() => setExpired((n) => n + 1), Math.max(0, wait) + 50);
    return () => clearTimeout(timer);
  }, [banner]);

  useEffect(
    () => () => {
      announcer.current?.dispose();
      announcer.current = null;
    },
    [],
  );
  // A TV's remote has one OK key: the sound button holds the focus until it is pressed.
  const ready = load.kind === 'ready';
  useEffect(() => {
    if (ready) soundButton.current?.focus();
  }, [ready]);

  const enableSound = () => {
    unlockAudio();
    announcer.current ??= createAnnouncer({ sound: false });
    announcer.current.setSound(true);
    setSoundOn(true);
  };

  if (load.kind !== 'ready') {
    return (
      <div className="board board--message" data-board-state={load.kind}>
        <p className="board__message" role={load.kind === 'error' ? 'alert' : 'status'}>
          {load.kind === 'loading'
            ? t('queue.board.loading')
            : load.notFound
              ? t('queue.board.notFound')
              : t('queue.board.reconnecting')}
        </p>
      </div>
    );
  }

  return (
    <>
      <BoardView
        board={load.board}
        banner={banner}
        offline={status === 'reconnecting'}
        joinCode={joinBy.code}
        joinSms={joinBy.sms}
      />
      {soundOn ? null : (
        <button ref={soundButton} type="button" className="board__sound" onClick={enableSound}>
          <span className="board__sound-title">{t('queue.board.enableSound')}</span>
          <span className="board__sound-hint">{t('queue.board.soundHint')}</span>
        </button>
      )}
    </>
  );
}
