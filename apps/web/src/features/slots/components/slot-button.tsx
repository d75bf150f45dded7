import type { Slot } from '@qless/contract';
import { formatMinutes, wireToMinutes } from '@qless/contract/core';
import { useId } from 'react';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import type { ShownState } from './week-model';

const STATE_KEYS: Record<Exclude<ShownState, 'free'>, MessageKey> = {
  past: 'slots.past',
  closed: 'slots.closed',
  taken: 'slots.taken',
  beyond: 'slots.beyond',
  unknown: 'slots.unknown',
  current: 'slots.current',
};

interface Props {
  slot: Slot;
  date: string;
  /** The date as read aloud, e.g. "Monday 30 November". */
  longDate: string;
  state: ShownState;
  /** Seats left, shown when the service takes more than one customer per slot. */
  seatsLeft: number | null;
  onSelect: (slot: Slot, date: string) => void;
}

export function SlotButton({ slot, date, longDate, state, seatsLeft, onSelect }: Props) {
  const { t } = useI18n();
  const describedBy = useId();
  const time = formatMinutes(wireToMinutes(slot.start_time));
  const seats = state === 'free' && seatsLeft !== null ? seatsLeft : null;
  const description = [
    t('slots.onDate', { date: longDate }),
    seats !== null
      ? t(seats === 1 ? 'slots.seatsLeft.one' : 'slots.seatsLeft.other', { n: seats })
      : null,
    state !== 'free' ? t(STATE_KEYS[state]) : null,
  ]
    .filter(Boolean)
    .join(', ');
  // The name is what is shown (the time, and seats left); the date and why a slot cannot be
  // chosen are its description, read after it.
  return (
    <>
      <button
        type="button"
        className={`slot slot--${state}`}
        disabled={state !== 'free'}
        data-slot-id={slot.id}
        data-date={date}
        data-state={state}
        aria-describedby={describedBy}
        onClick={() => onSelect(slot, date)}
      >
        <span className="slot__time">{time}</span>
        {seats !== null ? (
          <span className="slot__seats">
            {t(seats === 1 ? 'slots.seatsShort.one' : 'slots.seatsShort.other', { n: seats })}
          </span>
        ) : null}
      </button>
      <span id={describedBy} hidden>
        {description}
      </span>
    </>
  );
}
