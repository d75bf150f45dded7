import type { VisitState as State, WaitEstimate } from '@qless/contract';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { minutesRange } from '../lib/queue-view';

const STATE_KEY: Record<State, MessageKey> = {
  waiting: 'queue.state.waiting',
  called: 'queue.state.called',
  serving: 'queue.state.serving',
  done: 'queue.state.done',
  no_show: 'queue.state.no_show',
  left: 'queue.state.left',
  transferred: 'queue.state.transferred',
};

/** "A-042", read out letter by letter by screen readers as it is said aloud. */
export function VisitNumber({ number, big = false }: { number: string; big?: boolean }) {
  return (
    <span className={big ? 'queue-number queue-number--big' : 'queue-number'} translate="no">
      {number}
    </span>
  );
}

export function VisitState({ state }: { state: State }) {
  const { t } = useI18n();
  return <span className={`queue-badge queue-badge--${state}`}>{t(STATE_KEY[state])}</span>;
}

/** "about 10–20 min": always a range. */
export function WaitText({ estimate }: { estimate: WaitEstimate | null }) {
  const { t } = useI18n();
  if (!estimate) return null;
  const range = minutesRange(estimate);
  if (!range) return null;
  return (
    <span className="queue-wait">
      {range.max === 0
        ? t('queue.wait.now')
        : t('queue.wait.range', { min: range.min, max: range.max })}
    </span>
  );
}
