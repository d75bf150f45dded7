import type { Slot } from '@qless/contract';
import { formatMinutes, wireToMinutes } from '@qless/contract/core';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import type { SlotState } from '../lib/availability';

/** What a slot button shows: its state, or `current` (the booking being moved). */
export type ShownState = SlotState | 'current';

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
  const time = formatMinutes(wireToMinutes(slot.start_time));
  const label = t('slots.slotLabel', { time, date: longDate });
  const seats =
    state === 'free' && seatsLeft !== null
      ? t(seatsLeft === 1 ? 'slots.seatsLeft.one' : 'slots.seatsLeft.other', { n: seatsLeft })
      : null;
  return (
    <button
      type="button"
      className={`slot slot--${state}`}
      disabled={state !== 'free'}
      data-slot-id={slot.id}
      data-date={date}
      data-state={state}
      aria-label={
        state === 'free'
          ? seats
            ? `${label} (${seats})`
            : label
          : `${label} (${t(STATE_KEYS[state])})`
      }
      onClick={() => onSelect(slot, date)}
    >
      <span className="slot__time">{time}</span>
      {seats ? (
        <span className="slot__seats" aria-hidden="true">
          {t(seatsLeft === 1 ? 'slots.seatsShort.one' : 'slots.seatsShort.other', {
            n: seatsLeft ?? 0,
          })}
        </span>
      ) : null}
    </button>
  );
}
