import type { QueueVisit } from '@qless/contract';
import { useId, useState } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { clearableSelfJoins } from '../lib/queue-view';

/** The windows offered: the last 10 minutes, 30, an hour, or all of today (null). */
export const CLEAR_WINDOWS = [10, 30, 60, null] as const;
export type ClearWindow = (typeof CLEAR_WINDOWS)[number];

/**
 * A flood of joins from the poster removed in one act (decision 125): those who joined in the
 * chosen window and were never called, with one confirmation. Shown only when there are some.
 */
export function ClearSelfJoins(props: {
  visits: readonly QueueVisit[];
  serverTime: string;
  busy: boolean;
  onClear: (withinMinutes: number | null) => void;
}) {
  const { t } = useI18n();
  const selectId = useId();
  const [within, setWithin] = useState<ClearWindow>(30);
  const [confirming, setConfirming] = useState(false);
  const n = clearableSelfJoins(props.visits, props.serverTime, within).length;
  const all = clearableSelfJoins(props.visits, props.serverTime, null).length;
  if (all === 0) return null;
  return (
    <div className="queue-clear" data-testid="clear-self-joins">
      <p className="queue-noshows__hint">{t('queue.clear.hint')}</p>
      <label htmlFor={selectId}>{t('queue.clear.window')}</label>{' '}
      <select
        id={selectId}
        value={within === null ? 'all' : String(within)}
        onChange={(e) => {
          setConfirming(false);
          setWithin(e.target.value === 'all' ? null : (Number(e.target.value) as ClearWindow));
        }}
      >
        {CLEAR_WINDOWS.map((w) => (
          <option key={w ?? 'all'} value={w === null ? 'all' : String(w)}>
            {w === null ? t('queue.clear.window.all') : t('queue.clear.window.minutes', { n: w })}
          </option>
        ))}
      </select>{' '}
      {confirming ? (
        <span role="alert">
          {t('queue.clear.confirm', { n })}{' '}
          <button
            type="button"
            className="btn btn--primary"
            disabled={props.busy}
            onClick={() => {
              setConfirming(false);
              props.onClear(within);
            }}
          >
            {t('queue.clear.yes')}
          </button>{' '}
          <button type="button" className="btn btn--secondary" onClick={() => setConfirming(false)}>
            {t('queue.clear.no')}
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="btn btn--secondary"
          disabled={props.busy || n === 0}
          onClick={() => setConfirming(true)}
        >
          {t('queue.clear.button', { n })}
        </button>
      )}
    </div>
  );
}
