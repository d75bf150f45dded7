import type { VisitTurn } from '@qless/contract';
import { frenchCounterArticle } from '@qless/contract/core';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { ApiError, isAbort } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { type FeedStatus, followFeed } from '../../../lib/live-feed';
import { getVisitTurn, readTurn } from '../api/queue-public';
import { chime, unlockAudio, vibrate } from '../lib/sound';
import { waitingText } from '../lib/turn-text';
import './queue.css';

/** A phone on 3G pays for each poll: while the socket is down, one small GET every 20 s. */
const POLL_MS = 20_000;
const ENDED = new Set<VisitTurn['state']>(['done', 'no_show', 'left', 'transferred']);

type Load =
  | { kind: 'loading' }
  | { kind: 'ready'; turn: VisitTurn }
  | { kind: 'error'; refused: boolean };

/**
 * A visitor's turn, live: the first answer by GET, then what the turn socket pushes (a poll
 * where it cannot connect). A call rings and vibrates when the page is open; browsers allow
 * sound after the reader's first tap on the page, which unlocks it.
 */
export function useVisitTurn(visitId: string, key: string) {
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [status, setStatus] = useState<FeedStatus>('connecting');
  const previous = useRef<VisitTurn | null>(null);

  useEffect(() => {
    const unlock = () => {
      unlockAudio();
      window.removeEventListener('pointerdown', unlock);
      window.removeEventListener('keydown', unlock);
    };
    window.addEventListener('pointerdown', unlock);
    window.addEventListener('keydown', unlock);
    return unlock;
  }, []);

  useEffect(() => {
    previous.current = null;
    setLoad({ kind: 'loading' });
    const controller = new AbortController();
    let stopFeed: (() => void) | null = null;
    const show = (turn: VisitTurn) => {
      const before = previous.current;
      previous.current = turn;
      const calledNow =
        turn.state === 'called' &&
        before !== null &&
        (before.state !== 'called' || turn.recalls > before.recalls);
      if (calledNow) {
        chime();
        vibrate();
      }
      setLoad({ kind: 'ready', turn });
    };
    getVisitTurn(visitId, key, controller.signal).then(
      (turn) => {
        if (controller.signal.aborted) return;
        show(turn);
        if (ENDED.has(turn.state)) return;
        stopFeed = followFeed({
          socketPath: apiPaths.visitTurnSocket(visitId, key),
          fetchOnce: (signal) => getVisitTurn(visitId, key, signal),
          read: readTurn,
          onState: show,
          onStatus: setStatus,
          pollMs: POLL_MS,
          isFinal: (t) => ENDED.has(t.state),
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbort(error)) return;
        const refused = error instanceof ApiError && [400, 403, 404].includes(error.status);
        setLoad({ kind: 'error', refused });
      },
    );
    return () => {
      controller.abort();
      stopFeed?.();
    };
  }, [visitId, key]);

  // An answer of the visitor's own action (leaving the line) shown at once, before the feed.
  const replace = useCallback((turn: VisitTurn) => {
    previous.current = turn;
    setLoad({ kind: 'ready', turn });
  }, []);

  return { load, status, replace };
}

/** "Guichet 3" kept on one line (a phone must not leave the "3" alone below). */
const unbroken = (name: string) => name.replace(/ /g, '\u00a0');

/** "Guichet 1" kept on one line; in French with its words before ("à la Caisse 5"). */
function toCounter(name: string, locale: ReturnType<typeof useI18n>['locale']): string {
  return locale === 'fr' ? `${frenchCounterArticle(name)}${unbroken(name)}` : unbroken(name);
}

/** What the visitor should know now, in one sentence. */
export function turnMessage(
  turn: VisitTurn,
  t: ReturnType<typeof useI18n>['t'],
  locale: ReturnType<typeof useI18n>['locale'],
): string {
  switch (turn.state) {
    case 'waiting':
      return waitingText(t, locale, turn.position, turn.estimate, turn.counters_open);
    case 'called':
      return turn.counter_name
        ? t('queue.turn.goTo', { counter: toCounter(turn.counter_name, locale) })
        : t('queue.turn.calledHere');
    case 'serving':
      return turn.counter_name
        ? t('queue.turn.serving', { counter: toCounter(turn.counter_name, locale) })
        : t('queue.turn.servingHere');
    default:
      return t(`queue.turn.${turn.state}`);
  }
}

/**
 * The turn widget: the walk-in's page (`size="page"`), and inside a ticket or My bookings
 * (`size="inline"`) for a checked-in booking's visit.
 */
export function TurnCard({
  visitId,
  accessKey,
  size,
  onRefused,
  footer,
}: {
  visitId: string;
  accessKey: string;
  size: 'page' | 'inline';
  /** The key does not open this visit (or it is unknown). */
  onRefused?: () => void;
  /** What follows the turn inside the card (the visit page's actions). */
  footer?: (turn: VisitTurn, replace: (turn: VisitTurn) => void) => ReactNode;
}) {
  const { t, locale } = useI18n();
  const { load, status, replace } = useVisitTurn(visitId, accessKey);
  const refused = load.kind === 'error' && load.refused;
  const refusedRef = useRef(onRefused);
  refusedRef.current = onRefused;
  useEffect(() => {
    if (refused) refusedRef.current?.();
  }, [refused]);

  if (load.kind === 'loading') {
    return size === 'page' ? <Spinner label={t('common.loading')} /> : null;
  }
  if (load.kind === 'error') {
    if (size === 'inline') return null;
    return (
      <p className="turn-card__error" role="alert">
        {load.refused ? t('queue.visit.badKey') : t('queue.turn.loadFailed')}
      </p>
    );
  }
  const { turn } = load;
  const service =
    locale === 'fr' && turn.service_name_fr ? turn.service_name_fr : turn.service_name;
  const recalled = turn.state === 'called' && turn.recalls > 0;
  return (
    <section
      className={`turn-card turn-card--${size} turn-card--${turn.state}`}
      data-state={turn.state}
      aria-label={t('queue.turn.title')}
    >
      <p className="turn-card__label">{t('queue.turn.numberLabel')}</p>
      <p className="turn-card__number">{turn.number}</p>
      <p className="turn-card__service">
        {service} · {turn.organization_name}
      </p>
      <p className="turn-card__message" aria-live="assertive" data-testid="turn-message">
        {turnMessage(turn, t, locale)}
      </p>
      {recalled ? <p className="turn-card__recall">{t('queue.turn.recalled')}</p> : null}
      {turn.state === 'waiting' ? <p className="hint">{t('queue.turn.keepOpen')}</p> : null}
      {status === 'reconnecting' && !ENDED.has(turn.state) ? (
        <p className="turn-card__live" role="status">
          {t('queue.turn.reconnecting')}
        </p>
      ) : null}
      {footer?.(turn, replace)}
    </section>
  );
}
