import type { BoardSnapshot } from '@qless/contract';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { ApiError, isAbort } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { dropEmbedded, useEmbeddedData } from '../../../lib/embedded-data';
import { type FeedStatus, followFeed } from '../../../lib/live-feed';
import { boardQuery, getBoard, readBoard } from '../api/queue-public';
import { type Announcer, createAnnouncer, unlockAudio } from '../lib/sound';
import { spokenCall } from '../lib/turn-text';
import './board.css';

/** A board that lost its socket reads the state every 10 s until it is back. */
const POLL_MS = 10_000;

type Load =
  | { kind: 'loading' }
  | { kind: 'ready'; board: BoardSnapshot }
  | { kind: 'error'; notFound: boolean };

/**
 * The hall's screen (a TV or a cheap stick, 1920×1080 or 1280×720, read from across the
 * hall): who is called to which counter, the next numbers, and the latest call rung and
 * said. Numbers only. It follows the board socket for the day: one snapshot in state, no list
 * that grows, one announcer with a bounded line.
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
  const announcer = useRef<Announcer | null>(null);
  const soundButton = useRef<HTMLButtonElement>(null);
  const lastSeq = useRef<number | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    let stopFeed: (() => void) | null = null;
    lastSeq.current = null;
    const show = (board: BoardSnapshot) => {
      const call = board.last_call;
      if (call && lastSeq.current !== null && call.seq !== lastSeq.current) {
        announcer.current?.announce(spokenCall(call.number, call.counter_name));
      }
      if (call) lastSeq.current = call.seq;
      else if (lastSeq.current === null) lastSeq.current = -1;
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

  useEffect(() => () => announcer.current?.dispose(), []);
  // A TV's remote has one OK key: the sound button holds the focus until it is pressed.
  const ready = load.kind === 'ready';
  useEffect(() => {
    if (ready) soundButton.current?.focus();
  }, [ready]);

  const enableSound = () => {
    unlockAudio();
    announcer.current ??= createAnnouncer();
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

  const { board } = load;
  const call = board.last_call;
  const rows = board.serving.length;
  return (
    <div
      className="board"
      data-board-state="ready"
      data-seq={call?.seq ?? ''}
      style={{ '--board-rows': Math.max(rows, 4) } as React.CSSProperties}
    >
      <header className="board__top">
        <h1 className="board__org">{board.organization_name}</h1>
        {status === 'reconnecting' ? (
          <span className="board__offline" role="status">
            {t('queue.board.reconnecting')}
          </span>
        ) : null}
      </header>
      <div className="board__call" aria-live="polite">
        {call ? (
          <p key={call.seq} className="board__call-text" data-testid="board-call">
            <span className="board__call-label">{t('queue.board.lastCall')}</span>
            <span className="board__call-number">{call.number}</span>
            <span className="board__call-arrow" aria-hidden="true">
              →
            </span>
            <span className="board__call-counter">{call.counter_name}</span>
          </p>
        ) : null}
      </div>
      <section className="board__serving" aria-labelledby="board-serving">
        <h2 id="board-serving" className="board__heading">
          {t('queue.board.nowServing')}
        </h2>
        <table className="board__table">
          <thead className="board__sr">
            <tr>
              <th scope="col">{t('queue.board.counter')}</th>
              <th scope="col">{t('queue.board.number')}</th>
            </tr>
          </thead>
          <tbody>
            {board.serving.map((row) => (
              <tr
                key={row.counter_name}
                className={row.state === 'called' ? 'board__row board__row--called' : 'board__row'}
              >
                <th scope="row" className="board__counter">
                  {row.counter_name}
                </th>
                <td className="board__number">{row.number ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="board__next" aria-labelledby="board-next">
        <h2 id="board-next" className="board__heading">
          {t('queue.board.next')}
        </h2>
        {board.next.length ? (
          <ol className="board__next-list">
            {board.next.slice(0, 10).map((number) => (
              <li key={number}>{number}</li>
            ))}
          </ol>
        ) : (
          <p className="board__empty">{t('queue.board.noNext')}</p>
        )}
      </section>
      {soundOn ? null : (
        <button ref={soundButton} type="button" className="board__sound" onClick={enableSound}>
          <span className="board__sound-title">{t('queue.board.enableSound')}</span>
          <span className="board__sound-hint">{t('queue.board.soundHint')}</span>
        </button>
      )}
    </div>
  );
}
