import type { CustomerBooking } from '@qless/contract';
import { zonedNow } from '@qless/contract/core';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { ChevronIcon } from '../../../components/ui/icon';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { DAY_AND_MONTH, DAY_OF_MONTH, formatDate, SHORT_WEEKDAY } from '../../../lib/dates';
import { useAsync } from '../../../lib/use-async';
import { errorText } from '../lib/booking-text';
import {
  type Availability,
  DAYS_PER_PAGE,
  type PickerSlot,
  pageDates,
  pickerDays,
} from '../lib/reschedule-days';

/** Loads a service's slots and full slots between two dates (yyyy-MM-dd, inclusive). */
export type LoadAvailability = (
  serviceId: string,
  from: string,
  to: string,
  signal: AbortSignal,
) => Promise<Availability>;

interface Props {
  booking: CustomerBooking;
  loadAvailability: LoadAvailability;
  /** Bumped by the page to load again (after "someone has just taken that time"). */
  reloadKey: number;
  /** Why the last chosen time could not be had (shown above the days, focused). */
  error: string | null;
  onPick: (date: string, slot: PickerSlot) => void;
  onClose: () => void;
}

/** A day strip and that day's free times: the new time of a booking (same service). */
export function ReschedulePicker(props: Props) {
  const { booking, loadAvailability, reloadKey, onPick, onClose } = props;
  const { t, intlLocale } = useI18n();
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const timeZone = booking.organization.time_zone;
  const [now] = useState(() => new Date());
  const today = zonedNow(timeZone, now).date;
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // The horizon is learnt from the first answer; until then a page of 7 days is asked.
  const [lastDate, setLastDate] = useState<string | null>(null);
  const dates = useMemo(
    () => pageDates(today, page, lastDate ?? '9999-12-31'),
    [today, page, lastDate],
  );
  const from = dates[0] ?? today;
  const to = dates[dates.length - 1] ?? today;
  const serviceId = booking.service.service_id;
  const state = useAsync(
    (signal) => loadAvailability(serviceId, from, to, signal),
    [serviceId, from, to, attempt, reloadKey],
  );

  const errorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  useEffect(() => {
    if (props.error) errorRef.current?.focus();
  }, [props.error]);
  useEffect(() => {
    if (state.status === 'success') setLastDate(state.data.lastDate);
  }, [state]);

  const days = useMemo(
    () =>
      state.status === 'success'
        ? pickerDays(
            dates.filter((d) => d <= state.data.lastDate),
            state.data,
            { date: booking.date, slotId: booking.slot_id },
            timeZone,
            new Date(),
          )
        : [],
    [state, dates, booking.date, booking.slot_id, timeZone],
  );
  // The chosen day, else the first with a free time.
  const day =
    days.find((d) => d.date === selected) ?? days.find((d) => d.free.length > 0) ?? days[0] ?? null;
  const hasLater = lastDate === null || addPageEnd(today, page) < lastDate;

  return (
    <section className="ticket-card reschedule" aria-labelledby={titleId}>
      <h2 id={titleId} ref={headingRef} tabIndex={-1} className="ticket-card__title">
        {t('ticketPage.picker.title')}
      </h2>
      {lastDate ? (
        <p className="hint">
          {t('ticketPage.picker.intro', {
            last: formatDate(lastDate, intlLocale, DAY_AND_MONTH),
          })}
        </p>
      ) : null}
      {props.error ? (
        <div ref={errorRef} tabIndex={-1} className="reschedule__refused">
          <Alert tone="error">{props.error}</Alert>
        </div>
      ) : null}
      <div className="reschedule__bar">
        <button
          type="button"
          className="btn btn--secondary reschedule__nav"
          aria-label={t('ticketPage.picker.earlier')}
          disabled={page === 0}
          onClick={() => {
            setPage((p) => Math.max(0, p - 1));
            setSelected(null);
          }}
        >
          <ChevronIcon dir="left" />
        </button>
        <ul className="day-strip" aria-label={t('ticketPage.picker.days')}>
          {dates.map((date) => {
            const info = days.find((d) => d.date === date);
            const unavailable = !info || info.closed || info.free.length === 0;
            const isSelected = day?.date === date;
            return (
              <li key={date}>
                <button
                  type="button"
                  className={`day-chip${isSelected ? ' is-selected' : ''}`}
                  aria-pressed={isSelected}
                  data-date={date}
                  data-free={info ? info.free.length : undefined}
                  disabled={!info}
                  onClick={() => setSelected(date)}
                >
                  <span className="day-chip__weekday">
                    {formatDate(date, intlLocale, SHORT_WEEKDAY)}
                  </span>
                  <span className="day-chip__num">
                    {formatDate(date, intlLocale, DAY_OF_MONTH)}
                  </span>
                  <span className="day-chip__note">
                    {info && unavailable
                      ? info.closed
                        ? t('ticketPage.picker.closedShort')
                        : info.over
                          ? t('ticketPage.picker.over')
                          : t('ticketPage.picker.full')
                      : '\u00a0'}
                  </span>
                  <span className="visually-hidden">
                    {formatDate(date, intlLocale, DAY_AND_MONTH)}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
        <button
          type="button"
          className="btn btn--secondary reschedule__nav"
          aria-label={t('ticketPage.picker.later')}
          disabled={!hasLater}
          onClick={() => {
            setPage((p) => p + 1);
            setSelected(null);
          }}
        >
          <ChevronIcon dir="right" />
        </button>
      </div>
      {state.status === 'loading' ? (
        <Spinner label={t('ticketPage.picker.loading')} />
      ) : state.status === 'error' ? (
        <div role="alert" className="reschedule__error">
          <p>{t('ticketPage.picker.loadFailed')}</p>
          <p>{t(errorText(state.error).key)}</p>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => setAttempt((n) => n + 1)}
          >
            {t('common.retry')}
          </button>
        </div>
      ) : day ? (
        <DaySlots
          date={day.date}
          closed={day.closed}
          free={day.free}
          current={day.current}
          onPick={(slot) => onPick(day.date, slot)}
        />
      ) : null}
      <button type="button" className="btn btn--secondary btn--block" onClick={onClose}>
        {t('ticketPage.picker.keep')}
      </button>
    </section>
  );
}

function addPageEnd(today: string, page: number): string {
  return pageDates(today, page, '9999-12-31')[DAYS_PER_PAGE - 1] ?? today;
}

function DaySlots(props: {
  date: string;
  closed: boolean;
  free: PickerSlot[];
  current: string | null;
  onPick: (slot: PickerSlot) => void;
}) {
  const { t, intlLocale } = useI18n();
  const longDate = formatDate(props.date, intlLocale, DAY_AND_MONTH);
  if (props.closed) return <p className="empty-state">{t('ticketPage.picker.closed')}</p>;
  return (
    <div className="reschedule__slots">
      <h3 className="reschedule__day">{t('ticketPage.picker.slots', { date: longDate })}</h3>
      {props.free.length === 0 && !props.current ? (
        <p className="empty-state">{t('ticketPage.picker.none')}</p>
      ) : (
        <ul className="time-grid">
          {[
            ...props.free.map((slot) => ({ ...slot, current: false })),
            ...(props.current ? [{ id: '', time: props.current, current: true }] : []),
          ]
            .sort((a, b) => a.time.localeCompare(b.time))
            .map((slot) =>
              slot.current ? (
                <li key="current">
                  <button
                    type="button"
                    className="time-btn time-btn--current"
                    disabled
                    aria-label={t('ticketPage.picker.current', { time: slot.time, date: longDate })}
                  >
                    {slot.time}
                  </button>
                </li>
              ) : (
                <li key={slot.id}>
                  <button
                    type="button"
                    className="time-btn"
                    data-slot-id={slot.id}
                    aria-label={t('ticketPage.picker.slotLabel', {
                      time: slot.time,
                      date: longDate,
                    })}
                    onClick={() => props.onPick(slot)}
                  >
                    {slot.time}
                  </button>
                </li>
              ),
            )}
        </ul>
      )}
      {props.free.length === 0 && props.current ? (
        <p className="hint">{t('ticketPage.picker.none')}</p>
      ) : null}
    </div>
  );
}
