import { useEffect, useId, useRef, useState } from 'react';
import { ChevronIcon } from '../../../components/ui/icon';
import { LoadError } from '../../../components/ui/load-error';
import { useI18n } from '../../../i18n/i18n';
import { DAY_AND_MONTH, DAY_OF_MONTH, formatDate, SHORT_WEEKDAY } from '../../../lib/dates';
import { lastWeekOffset, rangeTitle } from '../lib/calendar';
import { SlotButton } from './slot-button';
import type { WeekModel } from './week-model';

interface Props {
  model: WeekModel;
  /** The 7 dates of the week shown, Monday first. */
  week: string[];
  offset: number;
  onOffset: (offset: number) => void;
}

/**
 * Wider screens: a week of 7 days from Monday (the spec drew it from Sunday),
 * today highlighted. Past days and slots stay visible but cannot be chosen; Next week stops
 * at the week holding the last bookable date, whose later days cannot be chosen either.
 */
export function WeekGrid({ model, week, offset, onOffset }: Props) {
  const { t, intlLocale } = useI18n();
  const titleId = useId();
  // The full day whose waitlist form shows under the week.
  const [waitDate, setWaitDate] = useState<string | null>(null);
  const waitPanel = useRef<HTMLDivElement>(null);
  // The form is under the whole week: its field is focused, which brings it into view.
  useEffect(() => {
    if (waitDate) waitPanel.current?.querySelector('input')?.focus();
  }, [waitDate]);
  const first = week[0];
  const last = week.at(-1);
  if (!first || !last) return null;
  const lastOffset = lastWeekOffset(model.today, model.bookableUntil);
  return (
    <section className="week" aria-labelledby={titleId}>
      <div className="week__bar">
        <button
          type="button"
          className="btn btn--secondary btn--icon"
          onClick={() => onOffset(Math.max(0, offset - 1))}
          disabled={offset <= 0}
          aria-label={t('slots.prevWeek')}
        >
          <ChevronIcon dir="left" />
          <span className="week__bar-text">{t('common.previous')}</span>
        </button>
        <h2 id={titleId} className="week__title" aria-live="polite">
          {rangeTitle(first, last, intlLocale)}
        </h2>
        <button
          type="button"
          className="btn btn--secondary btn--icon"
          onClick={() => onOffset(Math.min(lastOffset, offset + 1))}
          disabled={offset >= lastOffset}
          aria-label={t('slots.nextWeek')}
        >
          <span className="week__bar-text">{t('common.next')}</span>
          <ChevronIcon dir="right" />
        </button>
      </div>
      {model.takenFailed ? (
        <LoadError
          message={t('slots.takenFailed')}
          retryLabel={t('common.retry')}
          onRetry={model.retryTaken}
        />
      ) : null}
      <ol className="week__days">
        {week.map((date) => {
          const longDate = formatDate(date, intlLocale, DAY_AND_MONTH);
          const isToday = date === model.today;
          const state = model.dayStateOf(date);
          return (
            <li
              key={date}
              className={isToday ? 'day day--today' : 'day'}
              aria-current={isToday ? 'date' : undefined}
              data-date={date}
              data-state={state}
            >
              <h3 className="day__head">
                <span className="day__weekday">{formatDate(date, intlLocale, SHORT_WEEKDAY)}</span>
                <span className="day__num">{formatDate(date, intlLocale, DAY_OF_MONTH)}</span>
                {isToday ? <span className="day__today">{t('slots.today')}</span> : null}
                {state === 'closed' ? (
                  <span className="day__closed">{t('slots.closedDay')}</span>
                ) : state === 'beyond' ? (
                  <span className="day__closed">{t('slots.notYetOpen')}</span>
                ) : null}
                <span className="visually-hidden">{longDate}</span>
              </h3>
              {state === 'full' && model.fullDay ? (
                <button
                  type="button"
                  className="btn btn--secondary day__waitlist"
                  aria-pressed={waitDate === date}
                  aria-label={`${t('waitlist.title')}, ${longDate}: ${t('waitlist.notify')}`}
                  onClick={() => setWaitDate(date)}
                >
                  {t('waitlist.notify')}
                </button>
              ) : null}
              <ul className="day__slots">
                {model.slots.map((slot) => (
                  <li key={slot.id}>
                    <SlotButton
                      slot={slot}
                      date={date}
                      longDate={longDate}
                      state={model.stateOf(slot, date)}
                      seatsLeft={model.seatsOf(slot, date)}
                      onSelect={model.onSelect}
                    />
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ol>
      {waitDate && week.includes(waitDate) && model.dayStateOf(waitDate) === 'full' ? (
        <div ref={waitPanel}>{model.fullDay?.(waitDate)}</div>
      ) : null}
    </section>
  );
}
