import type { QueueVisit } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import { useI18n } from '../../../i18n/i18n';
import { clockTime } from '../lib/queue-view';
import { VisitNumber } from './visit-parts';

/**
 * Today's no-shows, each with "Back in line": the visitor was at the
 * toilet; the server puts them back at the place their arrival gave them.
 */
export function NoShowList(props: {
  visits: readonly QueueVisit[];
  timeZone: string;
  busy: boolean;
  onPutBack: (visit: QueueVisit) => void;
}) {
  const { t, locale, intlLocale } = useI18n();
  if (props.visits.length === 0) return null;
  return (
    <>
      <p className="queue-noshows__hint">{t('queue.noShows.hint')}</p>
      <ul className="queue-line" data-testid="no-show-list">
        {props.visits.map((v) => (
          <li key={v.visit_id} className="queue-row">
            <VisitNumber number={v.number} />
            <div className="queue-row__main">
              <p className="queue-row__name">{v.customer_name}</p>
              <p className="queue-row__meta">
                {localizedText(v.service_name, v.service_name_fr, locale)}
                {v.ended_at ? ` · ${clockTime(v.ended_at, props.timeZone, intlLocale)}` : null}
              </p>
            </div>
            <button
              type="button"
              className="btn btn--secondary queue-row__act"
              disabled={props.busy}
              onClick={() => props.onPutBack(v)}
            >
              {t('queue.noShows.back')}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
