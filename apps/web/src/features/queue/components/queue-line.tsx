import type { Counter, QueueVisit } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import { useI18n } from '../../../i18n/i18n';
import { clockTime } from '../lib/queue-view';
import { VisitNumber, WaitText } from './visit-parts';

/**
 * The waiting visits in calling order: number, name, service, booked or walk-in (with the
 * slot's time), place in its service's line and the wait. Those this counter does not serve
 * are dimmed, not hidden: the clerk sees the whole hall.
 */
export function QueueLine(props: {
  visits: readonly QueueVisit[];
  timeZone: string;
  counter: Counter | null;
}) {
  const { t, locale, intlLocale } = useI18n();
  if (props.visits.length === 0) return <p className="empty-state">{t('queue.line.empty')}</p>;
  const served = props.counter ? new Set(props.counter.service_ids) : null;
  return (
    <ol className="queue-line" data-testid="queue-line">
      {props.visits.map((v) => {
        const other = served !== null && !served.has(v.service_id);
        return (
          <li key={v.visit_id} className={other ? 'queue-row queue-row--other' : 'queue-row'}>
            <VisitNumber number={v.number} />
            <div className="queue-row__main">
              <p className="queue-row__name">{v.customer_name}</p>
              <p className="queue-row__meta">
                {localizedText(v.service_name, v.service_name_fr, locale)}
                {' · '}
                {v.source === 'booking' && v.slot_start
                  ? t('queue.line.booked', {
                      time: clockTime(v.slot_start, props.timeZone, intlLocale),
                    })
                  : t(v.source === 'self' ? 'queue.line.selfWalkIn' : 'queue.line.walkIn')}
              </p>
            </div>
            <div className="queue-row__wait">
              {v.position !== null ? (
                <span className="queue-row__position">
                  {t('queue.line.position', { n: v.position })}
                </span>
              ) : null}
              <WaitText estimate={v.estimate} />
            </div>
          </li>
        );
      })}
    </ol>
  );
}
