import type { Slot } from '@qless/contract';
import { type RefObject, useEffect, useRef, useState } from 'react';
import type { DeviceBooking } from '../../../lib/device-bookings';
import { useHydrated } from '../../../lib/use-hydrated';
import type { Customer } from './booking-wizard';
import { RESUME_REQUEST_EVENT } from './resume';
import { focusSlotOrList } from './slot-focus';
import { useResumableBooking } from './use-resumable-booking';

export interface ChosenSlot {
  slot: Slot;
  date: string;
  /** Set when the modal reopens a payment made earlier on this device. */
  resume: DeviceBooking | null;
  /** What the form starts with (a waitlist offer's number). */
  prefill?: Partial<Customer> | null;
}

interface Options {
  serviceId: string;
  /** The service's slots once loaded (undefined while loading). */
  slots: Slot[] | undefined;
  /** False while the slot list shows a spinner instead of its buttons. */
  listSettled: boolean;
  /** Changes identity when the list's data is replaced (the taken slots of the week). */
  listVersion: unknown;
  /** Reloads the slot list. */
  reload: () => void;
  /** Focused when neither the slot nor the list can be (the page heading). */
  fallbackFocus: RefObject<HTMLElement | null>;
}

/**
 * Which slot's booking modal is open on a slots page, and everything around it:
 * a payment left in flight (or just paid) on this device for this service reopens where it
 * stands — once on arrival, and when the banner asks; choosing the slot of one's own pending
 * payment reopens it instead of starting a second hold; on close, focus returns to the slot
 * (or the list) once the list has reloaded.
 */
export function useSlotBooking(options: Options) {
  const { serviceId, slots, listSettled, listVersion } = options;
  const [chosen, setChosen] = useState<ChosenSlot | null>(null);
  const [focusBack, setFocusBack] = useState<{
    slotId: string;
    date: string;
    /** The list's data before a reload the modal asked for: focus waits for the new one. */
    stale: unknown;
  } | null>(null);
  const staleVersion = useRef<unknown>(undefined);
  const resumable = useResumableBooking();
  // This device's bookings are known from hydration on (a server-rendered page starts
  // without them): resume once both they and the slots are in.
  const hydrated = useHydrated();
  const autoResumed = useRef(false);

  const resumeHere = (entry: DeviceBooking | null) => {
    if (!entry || entry.service_id !== serviceId || !slots) return;
    const slot = slots.find((s) => s.id === entry.slot_id);
    if (slot) setChosen({ slot, date: entry.date, resume: entry });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the slots arrive.
  useEffect(() => {
    if (autoResumed.current || !slots || !hydrated) return;
    autoResumed.current = true;
    if (!chosen) resumeHere(resumable);
  }, [slots, hydrated]);

  const onRequest = useRef(() => {});
  onRequest.current = () => {
    if (!chosen) resumeHere(resumable);
  };
  useEffect(() => {
    const listener = () => onRequest.current();
    addEventListener(RESUME_REQUEST_EVENT, listener);
    return () => removeEventListener(RESUME_REQUEST_EVENT, listener);
  }, []);

  const fresh = !focusBack || focusBack.stale === undefined || listVersion !== focusBack.stale;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the fallback is a stable ref.
  useEffect(() => {
    if (!focusBack || !listSettled || !fresh) return;
    focusSlotOrList(focusBack.slotId, focusBack.date, options.fallbackFocus.current);
    setFocusBack(null);
  }, [focusBack, listSettled, fresh]);

  return {
    chosen,
    choose: (slot: Slot, date: string, prefill: Partial<Customer> | null = null) => {
      const own =
        resumable?.state === 'pending' && resumable.slot_id === slot.id && resumable.date === date;
      setChosen({ slot, date, resume: own ? resumable : null, prefill });
    },
    close: () => {
      if (chosen) {
        setFocusBack({ slotId: chosen.slot.id, date: chosen.date, stale: staleVersion.current });
      }
      setChosen(null);
    },
    /** The modal's payment changed the list (paid, or released): reload it. */
    changed: () => {
      staleVersion.current = listVersion;
      options.reload();
    },
  };
}
