import type { Slot } from '@qless/contract';
import { formatMinutes, wireToMinutes } from '@qless/contract/core';
import { useId } from 'react';
import { ChevronIcon } from '../../../components/ui/icon';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import {
  DAY_AND_MONTH,
  DAY_OF_MONTH,
  formatDate,
  MONTH_AND_YEAR,
  SHORT_WEEKDAY,
} from '../../../lib/dates';
import { slotState } from '../lib/availability';
import type { WeekDay } from '../lib/week';
import './slots.css';

const STATE_KEYS = {
  past: 'slots.past',
  closed: 'slots.closed',
  taken: 'slots.taken',
} as const;

interface Props {
  week: WeekDay[];
  slots: Slot[];
  taken: ReadonlySet<string>;
  /** Dates of the week the organization is closed. */
  closed: ReadonlySet<string>;
  timeZone: string;
  now: Date;
  loading: boolean;
  canGoBack: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onChoose: (slot: Slot, date: string) => void;
}

export function WeekView(props: Props) {
  const { t, intlLocale } = useI18n();
  const titleId = useId();
  const first = props.week[0];
  if (!first) return null;
  return (
    <section className="week" aria-labelledby={titleId}>
      <div className="week__bar">
        <button
          type="button"
          className="btn btn--secondary btn--icon"
          onClick={props.onPrevious}
          disabled={!props.canGoBack}
          aria-label={t('slots.prevWeek')}
        >
          <ChevronIcon dir="left" />
          <span className="week__bar-text">{t('common.previous')}</span>
        </button>
        <h2 id={titleId} className="week__title" aria-live="polite">
          {formatDate(first.date, intlLocale, MONTH_AND_YEAR)}
        </h2>
        <button
          type="button"
          className="btn btn--secondary btn--icon"
          onClick={props.onNext}
          aria-label={t('slots.nextWeek')}
        >
          <span className="week__bar-text">{t('common.next')}</span>
          <ChevronIcon dir="right" />
        </button>
      </div>
      {props.loading ? (
        <Spinner label={t('slots.loading')} />
      ) : props.slots.length === 0 ? (
        <p className="empty-state">{t('slots.noSlots')}</p>
      ) : (
        <ol className="week__days">
          {props.week.map((day) => {
            const longDate = formatDate(day.date, intlLocale, DAY_AND_MONTH);
            const closedDay = props.closed.has(day.date);
            return (
              <li
                key={day.date}
                className={day.isToday ? 'day day--today' : 'day'}
                aria-current={day.isToday ? 'date' : undefined}
                data-date={day.date}
              >
                <h3 className="day__head">
                  <span className="day__weekday">
                    {formatDate(day.date, intlLocale, SHORT_WEEKDAY)}
                  </span>
                  <span className="day__num">{formatDate(day.date, intlLocale, DAY_OF_MONTH)}</span>
                  {day.isToday ? <span className="day__today">{t('slots.today')}</span> : null}
                  {closedDay ? <span className="day__closed">{t('slots.closedDay')}</span> : null}
                  <span className="visually-hidden">{longDate}</span>
                </h3>
                <ul className="day__slots">
                  {props.slots.map((slot) => {
                    const state = slotState(
                      slot,
                      day.date,
                      props.taken,
                      props.timeZone,
                      props.now,
                      closedDay,
                    );
                    const time = formatMinutes(wireToMinutes(slot.start_time));
                    const label = t('slots.slotLabel', { time, date: longDate });
                    return (
                      <li key={slot.id}>
                        <button
                          type="button"
                          className={`slot slot--${state}`}
                          disabled={state !== 'free'}
                          data-slot-id={slot.id}
                          data-state={state}
                          aria-label={
                            state === 'free' ? label : `${label} (${t(STATE_KEYS[state])})`
                          }
                          onClick={() => props.onChoose(slot, day.date)}
                        >
                          {time}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
