import type { Undoable } from '@qless/contract';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../../../i18n/i18n';

/** How long the button offers the undo here: the server's window, less a margin for the trip. */
export const UNDO_SHOWN_MS = 9_000;

/**
 * "Undo (9 s)" after a call, no-show, done or transfer. The server decides
 * (it reverts only the counter's latest act, within its window); this only offers it for a
 * little less than that window, counting down.
 */
export function UndoButton(props: {
  undo: Undoable;
  busy: boolean;
  onUndo: () => void;
  onExpired: () => void;
}) {
  const { t } = useI18n();
  const [left, setLeft] = useState(Math.ceil(UNDO_SHOWN_MS / 1000));
  // The latest callback, without restarting the countdown on each render of the screen.
  const expired = useRef(props.onExpired);
  expired.current = props.onExpired;
  useEffect(() => {
    const started = performance.now();
    const timer = setInterval(() => {
      const remaining = Math.ceil((UNDO_SHOWN_MS - (performance.now() - started)) / 1000);
      if (remaining <= 0) {
        clearInterval(timer);
        expired.current();
      } else setLeft(remaining);
    }, 250);
    return () => clearInterval(timer);
  }, []);
  return (
    <button
      type="button"
      className="btn btn--secondary queue-undo"
      data-testid="undo"
      disabled={props.busy}
      onClick={props.onUndo}
    >
      {t('queue.act.undoFor', { s: left })}
    </button>
  );
}
