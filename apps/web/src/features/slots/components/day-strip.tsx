import { useId, useState } from 'react';
import { ChevronIcon } from '../../../components/ui/icon';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { DAY_AND_MONTH, DAY_OF_MONTH, formatDate, SHORT_WEEKDAY } from '../../../lib/dates';
import { type DayState, dayMark, firstOpenDay, rangeTitle, stripPageCount } from '../lib/calendar';
import { SlotButton } from './slot-button';
import type { WeekModel } from './week-model';

const selectable = (state: DayState) => state === 'open' || state === 'unknown';

interface Props {
  model: WeekModel;
  /** The days of this page of the strip (today first on the first page). */
  dates: string[];
  page: number;
  onPage: (page: number) => void;
}

/**
 * Phones: a strip of days, then the chosen day's slots. Today comes first and is chosen
 * when it has a free slot; days with nothing to book are marked and cannot be chosen;
 * no day after the booking horizon is ever shown.
 */
export function DayStrip({ model, dates, page, onPage }: Props) {
  const { t, intlLocale } = useI18n();
  const titleId = useId();
  const dayTitleId = useId();
  const [picked, setPicked] = useState<string | null>(null);
  const pages = stripPageCount(model.today, model.bookableUntil);
  const states = new Map(dates.map((d) => [d, model.dayStateOf(d)]));
  const pickedState = picked ? states.get(picked) : undefined;
  // A full day may be chosen when it has something to offer instead (the waitlist).
  const canPick = (state: DayState) => selectable(state) || (state === 'full' && !!model.fullDay);
  const selected =
    picked && pickedState && canPick(pickedState)
      ? picked
      : (firstOpenDay(dates, states) ??
        (model.takenLoading || model.takenFailed
          ? (dates.find((d) => selectable(states.get(d) ?? 'closed')) ?? null)
          : null));
  const first = dates[0];
  const last = dates.at(-1);
  if (!first || !last) return null;

  const go = (next: number) => {
    setPicked(null);
    onPage(next);
  };

  return (
    <section className="strip" aria-labelledby={titleId}>
      <div className="week__bar">
        <button
          type="button"
          className="btn btn--secondary btn--icon"
          onClick={() => go(page - 1)}
          disabled={page <= 0}
          aria-label={t('slots.prevWeek')}
        >
          <ChevronIcon dir="left" />
        </button>
        <h2 id={titleId} className="week__title" aria-live="polite">
          {rangeTitle(first, last, intlLocale)}
        </h2>
        <button
          type="button"
          className="btn btn--secondary btn--icon"
          onClick={() => go(page + 1)}
          disabled={page >= pages - 1}
          aria-label={t('slots.nextWeek')}
        >
          <ChevronIcon dir="right" />
        </button>
      </div>
      <ul className="strip__days">
        {dates.map((date) => {
          const state = states.get(date) ?? 'unknown';
          const isToday = date === model.today;
          const mark = dayMark(state);
          const spoken = [
            formatDate(date, intlLocale, DAY_AND_MONTH),
            isToday ? t('slots.today') : null,
            mark ? t(mark) : null,
          ]
            .filter(Boolean)
            .join(', ');
          return (
            <li key={date}>
              <button
                type="button"
                className={[
                  'strip-day',
                  `strip-day--${state}`,
                  isToday ? 'strip-day--today' : '',
                  date === selected ? 'strip-day--selected' : '',
                ]
                  .filter(Boolean)
                  .join(' ')}
                data-date={date}
                data-state={state}
                aria-pressed={date === selected}
                disabled={!canPick(state)}
                onClick={() => setPicked(date)}
              >
                {/* Read aloud: the whole date and what it offers; shown: the short form. */}
                <span className="visually-hidden">{spoken}</span>
                <span className="strip-day__weekday" aria-hidden="true">
                  {isToday ? t('slots.todayShort') : formatDate(date, intlLocale, SHORT_WEEKDAY)}
                </span>
                <span className="strip-day__num" aria-hidden="true">
                  {formatDate(date, intlLocale, DAY_OF_MONTH)}
                </span>
                <span className="strip-day__mark" aria-hidden="true">
                  {mark ? t(mark) : ''}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {model.takenFailed ? (
        <LoadError
          message={t('slots.takenFailed')}
          retryLabel={t('common.retry')}
          onRetry={model.retryTaken}
        />
      ) : null}
      {selected ? (
        <section className="strip__day" data-date={selected} aria-labelledby={dayTitleId}>
          <h3 id={dayTitleId} className="strip__day-title">
            {formatDate(selected, intlLocale, DAY_AND_MONTH)}
          </h3>
          {model.takenLoading ? (
            <Spinner label={t('slots.loading')} />
          ) : states.get(selected) === 'full' && model.fullDay ? (
            model.fullDay(selected)
          ) : (
            <ul className="day__slots">
              {model.slots.map((slot) => {
                const state = model.stateOf(slot, selected);
                // On a phone, slots already gone by today are only clutter.
                if (state === 'past') return null;
                return (
                  <li key={slot.id}>
                    <SlotButton
                      slot={slot}
                      date={selected}
                      longDate={formatDate(selected, intlLocale, DAY_AND_MONTH)}
                      state={state}
                      seatsLeft={model.seatsOf(slot, selected)}
                      onSelect={model.onSelect}
                    />
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      ) : (
        <p className="empty-state" role="status">
          {page < pages - 1 ? t('slots.noFreeDayNext') : t('slots.noFreeDay')}
        </p>
      )}
    </section>
  );
}
