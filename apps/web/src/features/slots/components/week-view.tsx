import type { Service, Slot, SlotListResponse } from '@qless/contract';
import { zonedNow } from '@qless/contract/core';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import type { AsyncState } from '../../../lib/use-async';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useSlots } from '../api/get-slots';
import { useSlotOccupancy } from '../api/get-taken-slots';
import {
  isClosedDay,
  seatsLeft,
  seatsTakenMap,
  slotState,
  sortSlots,
  takenSet,
} from '../lib/availability';
import { type DayContext, dayState, FIRST_VIEW, shownDates, takenRange } from '../lib/calendar';
import { useNow } from '../lib/use-now';
import { DayStrip } from './day-strip';
import { WeekGrid } from './week-grid';
import type { WeekModel } from './week-model';
import './slots.css';

/** Phones get the day strip; wider screens the week grid (design: 768 px). */
const WIDE = '(min-width: 768px)';

export interface WeekViewProps {
  /** The service: its id, and its capacity (seats per slot; seats left shown above 1). */
  service: Pick<Service, 'service_id'> & Partial<Pick<Service, 'capacity'>>;
  /** The organization's IANA time zone: its "today" and which slots have started. */
  timeZone: string;
  /** A free slot was chosen, on `date` (yyyy-MM-dd). */
  onSelect: (slot: Slot, date: string) => void;
  /**
   * The service's slots when the caller loads them itself (`useSlots`), with how to retry
   * them; left out, the view loads them.
   */
  slots?: AsyncState<SlotListResponse>;
  onRetrySlots?: () => void;
  /** Change it to load the taken seats again (after a payment, a cancellation). */
  reloadKey?: number;
  /** A slot-date shown as the customer's current booking, not selectable (rescheduling). */
  current?: { slotId: string; date: string } | null;
  /** Told whether the slots and their taken seats are both known (e.g. to move focus). */
  onSettled?: (settled: boolean) => void;
  /** What a full day shows (the waitlist's form); full days stay unchosen without. */
  fullDay?: (date: string) => ReactNode;
}

/**
 * The slots of a service for customers: a day strip on phones (today first, no past day,
 * nothing past the booking horizon), the week grid on wider screens. Slots whose taken
 * state is unknown are never offered; failures say so with "Retry".
 */
export function WeekView(props: WeekViewProps) {
  const { service, timeZone, onSelect, current = null, onSettled, fullDay = null } = props;
  const { t } = useI18n();
  const wide = useMediaQuery(WIDE);
  const [ownKey, setOwnKey] = useState(0);
  const own = useSlots(service.service_id, (props.reloadKey ?? 0) + ownKey, Boolean(props.slots));
  const slotsState = props.slots ?? own;
  const retrySlots = props.slots ? props.onRetrySlots : () => setOwnKey((k) => k + 1);
  const now = useNow();
  const [page, setPage] = useState(FIRST_VIEW.page);
  const [offset, setOffset] = useState(FIRST_VIEW.offset);
  const [takenKey, setTakenKey] = useState(0);

  const data = slotsState.data;
  // The organization's today from the server; later if this page stayed open past midnight.
  const clientToday = zonedNow(timeZone, now).date;
  const today = !data || clientToday > data.today ? clientToday : data.today;
  const bookableUntil = data?.bookable_until ?? today;
  const dates = useMemo(
    () => shownDates(today, bookableUntil, { wide, offset, page }),
    [wide, today, bookableUntil, offset, page],
  );
  const range = data ? takenRange(dates) : null;
  const taken = useSlotOccupancy(service.service_id, range, (props.reloadKey ?? 0) + takenKey);

  const settled = slotsState.status !== 'loading' && taken.status !== 'loading';
  useEffect(() => {
    onSettled?.(settled);
  }, [onSettled, settled]);

  const model = useMemo<WeekModel | null>(() => {
    if (!data) return null;
    const slots = sortSlots(data.slots);
    const known = taken.status === 'success' ? taken.data : null;
    const full = known ? takenSet(known.bookings) : null;
    const seats = seatsTakenMap(known?.seats_taken ?? []);
    const capacity = service.capacity ?? 1;
    const ctx: DayContext = {
      today,
      bookableUntil,
      openDays: data.open_days,
      closures: data.closures,
      slots,
      taken: full,
      timeZone,
      now,
    };
    return {
      slots,
      today,
      bookableUntil,
      stateOf: (slot, date) => {
        if (current && current.slotId === slot.id && current.date === date) return 'current';
        return slotState(slot, date, {
          taken: full,
          timeZone,
          now,
          bookableUntil,
          closedDay: isClosedDay(date, data.open_days, data.closures),
        });
      },
      // Only where some are taken: "3 left" on every slot of an empty week says nothing.
      seatsOf: (slot, date) => {
        if (capacity <= 1 || !known) return null;
        const left = seatsLeft(seats, date, slot.id, capacity);
        return left < capacity ? left : null;
      },
      dayStateOf: (date) => dayState(date, ctx),
      takenFailed: taken.status === 'error',
      takenLoading: taken.status === 'loading',
      retryTaken: () => setTakenKey((k) => k + 1),
      onSelect,
      fullDay,
    };
  }, [
    data,
    taken,
    service.capacity,
    today,
    bookableUntil,
    timeZone,
    now,
    current,
    onSelect,
    fullDay,
  ]);

  if (slotsState.status === 'loading') return <Spinner label={t('slots.loading')} />;
  if (slotsState.status === 'error' || !model) {
    return (
      <LoadError
        message={t('slots.loadFailedTimes')}
        retryLabel={t('common.retry')}
        onRetry={() => retrySlots?.()}
      />
    );
  }
  if (model.slots.length === 0) return <p className="empty-state">{t('slots.noSlots')}</p>;
  const capacity = service.capacity ?? 1;
  return (
    <>
      {capacity > 1 ? (
        <p className="hint week__capacity">{t('slots.capacityHint', { n: capacity })}</p>
      ) : null}
      {wide ? (
        <WeekGrid model={model} week={dates} offset={offset} onOffset={setOffset} />
      ) : (
        <DayStrip model={model} dates={dates} page={page} onPage={setPage} />
      )}
      <ul className="legend" aria-hidden="true">
        <li>
          <span className="slot slot--free legend__swatch" /> {t('slots.legendFree')}
        </li>
        <li>
          <span className="slot slot--past legend__swatch" /> {t('slots.legendOff')}
        </li>
      </ul>
    </>
  );
}
