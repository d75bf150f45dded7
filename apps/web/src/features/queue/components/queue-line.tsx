import type { Counter, QueueVisit } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import { useI18n } from '../../../i18n/i18n';
import { ordinal } from '../../../lib/ordinal';
import { CATEGORY_KEY } from '../lib/fair-order';
import { clockTime, counterLine } from '../lib/queue-view';
import { VisitNumber, WaitText } from './visit-parts';

/**
 * The waiting visits: first those this counter calls, in the order it calls
 * them ("1st for you", "2nd for you": who comes to this desk next), then the other services'
 * visitors, dimmed, each with the place in its own service's line. With no counter picked,
 * the whole line in calling order with each service's place.
 */
export function QueueLine(props: {
  visits: readonly QueueVisit[];
  timeZone: string;
  counter: Counter | null;
  /** The organization's own name for its premium clients (decision 138). */
  premiumLabel?: string | null;
  /** The branch's counters: a visitor sent to one by name says which (decision 139). */
  counters?: readonly Counter[];
}) {
  const { t } = useI18n();
  const names = new Map((props.counters ?? []).map((c) => [c.counter_id, c.name]));
  if (props.visits.length === 0) return <p className="empty-state">{t('queue.line.empty')}</p>;
  const { mine, others } = counterLine(props.visits, props.counter);
  if (!props.counter) {
    return (
      <div data-testid="queue-line">
        <Rows
          visits={others}
          timeZone={props.timeZone}
          mine={false}
          premiumLabel={props.premiumLabel}
          names={names}
        />
      </div>
    );
  }
  return (
    <div data-testid="queue-line">
      <h3 className="queue-line__title">{t('queue.line.mine')}</h3>
      {mine.length > 0 ? (
        <Rows
          visits={mine}
          timeZone={props.timeZone}
          mine
          testId="queue-line-mine"
          premiumLabel={props.premiumLabel}
          names={names}
        />
      ) : (
        <p className="empty-state" role="status">
          {t('queue.line.mineEmpty')}
        </p>
      )}
      {others.length > 0 ? (
        <>
          <h3 className="queue-line__title">{t('queue.line.others')}</h3>
          <Rows
            visits={others}
            timeZone={props.timeZone}
            mine={false}
            testId="queue-line-others"
            premiumLabel={props.premiumLabel}
            names={names}
          />
        </>
      ) : null}
    </div>
  );
}

function Rows(props: {
  visits: readonly QueueVisit[];
  timeZone: string;
  /** This counter's own order: the place is the rank in it. */
  mine: boolean;
  testId?: string;
  premiumLabel?: string | null | undefined;
  names: ReadonlyMap<string, string>;
}) {
  const { t, locale, intlLocale } = useI18n();
  return (
    <ol className="queue-line" data-testid={props.testId}>
      {props.visits.map((v, index) => {
        const place = props.mine
          ? t('queue.line.minePlace', { ordinal: ordinal(index + 1, locale) })
          : v.position !== null
            ? t('queue.line.position', { ordinal: ordinal(v.position, locale) })
            : null;
        return (
          <li
            key={v.visit_id}
            className={props.mine ? 'queue-row queue-row--mine' : 'queue-row queue-row--other'}
          >
            <VisitNumber number={v.number} />
            <div className="queue-row__main">
              <p className="queue-row__name">
                {v.customer_name}
                {v.priority_category ? ' ' : null}
                {v.priority_category ? (
                  <span className="queue-row__priority">
                    {v.priority_category === 'premium' && props.premiumLabel
                      ? props.premiumLabel
                      : t(CATEGORY_KEY[v.priority_category])}
                  </span>
                ) : null}
              </p>
              <p className="queue-row__meta">
                {localizedText(v.service_name, v.service_name_fr, locale)}
                {' · '}
                {v.source === 'booking' && v.slot_start
                  ? t('queue.line.booked', {
                      time: clockTime(v.slot_start, props.timeZone, intlLocale),
                    })
                  : t(
                      v.source === 'self'
                        ? 'queue.line.selfWalkIn'
                        : v.source === 'kiosk'
                          ? 'queue.line.kioskWalkIn'
                          : v.source === 'sms'
                            ? 'queue.line.smsWalkIn'
                            : 'queue.line.walkIn',
                    )}
                {v.for_counter_id && props.names.has(v.for_counter_id)
                  ? ` · ${t('queue.line.sentTo', { counter: props.names.get(v.for_counter_id) ?? '' })}`
                  : null}
              </p>
            </div>
            <div className="queue-row__wait">
              {place ? <span className="queue-row__position">{place}</span> : null}
              <WaitText estimate={v.estimate} />
            </div>
          </li>
        );
      })}
    </ol>
  );
}
