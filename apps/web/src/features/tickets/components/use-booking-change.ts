import type { CustomerBooking } from '@qless/contract';
import { useRef, useState } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { cancelBooking } from '../api/cancel-booking';
import { rescheduleBooking } from '../api/reschedule-booking';
import { errorText, waitText } from '../lib/booking-text';
import type { PickerSlot } from '../lib/reschedule-days';

export type Dialog =
  | { kind: 'cancel' }
  | { kind: 'reschedule'; date: string; slot: PickerSlot }
  | null;

/** Codes after which the page reads the booking again: it changed under the customer. */
const STALE_CODES = new Set<string>(['CHANGE_PAST_CUTOFF', 'BOOKING_NOT_CHANGEABLE']);
/** Codes that say "choose another time". */
const PICK_AGAIN_CODES = new Set<string>([
  'SLOT_TAKEN',
  'SAME_SLOT',
  'SLOT_IN_PAST',
  'DAY_CLOSED',
  'DATE_OUT_OF_HORIZON',
]);

/**
 * Cancelling or moving a booking: the picker, the confirmation dialog, the request, and
 * where the answer goes (a notice on the status card, the dialog, or back to the picker).
 */
export function useBookingChange(options: {
  booking: CustomerBooking;
  accessKey: string;
  onChanged: (booking: CustomerBooking) => void;
  onRefresh: () => void;
}) {
  const { booking } = options;
  const { t, intlLocale } = useI18n();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [pickerReload, setPickerReload] = useState(0);
  const [pickerError, setPickerError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const rescheduleRef = useRef<HTMLButtonElement>(null);

  const messageOf = (error: unknown) => {
    const text = errorText(error);
    return t(text.key, text.wait !== null ? { wait: waitText(text.wait, intlLocale) } : {});
  };

  const settled = (next: CustomerBooking, message: string) => {
    setDialog(null);
    setPicking(false);
    setNotice(message);
    options.onChanged(next);
    // The button that opened the dialog may be gone: the reader lands on the new state.
    requestAnimationFrame(() => statusRef.current?.focus());
  };

  const refused = (error: unknown) => {
    const code = error instanceof ApiError ? error.code : null;
    if (code && PICK_AGAIN_CODES.has(code)) {
      // That time cannot be had: back to the picker, loaded again, with the reason.
      setDialog(null);
      setPickerError(messageOf(error));
      setPickerReload((n) => n + 1);
      return;
    }
    setDialogError(messageOf(error));
    if (code && STALE_CODES.has(code)) options.onRefresh();
  };

  const send = async (
    request: () => Promise<CustomerBooking>,
    done: (next: CustomerBooking) => string,
  ) => {
    setBusy(true);
    setDialogError(null);
    try {
      const next = await request();
      settled(next, done(next));
    } catch (error) {
      refused(error);
    } finally {
      setBusy(false);
    }
  };

  const confirmCancel = () =>
    send(
      () => cancelBooking(booking.booking_id, options.accessKey),
      () => t('ticketPage.cancelled'),
    );

  const confirmReschedule = (date: string, slot: PickerSlot) =>
    send(
      () => rescheduleBooking(booking.booking_id, options.accessKey, { slot_id: slot.id, date }),
      (next) =>
        t('ticketPage.rescheduled', {
          date: formatDate(next.date, intlLocale, LONG_DATE),
          time: next.time,
        }),
    );

  return {
    dialog,
    busy,
    dialogError,
    picking,
    pickerReload,
    pickerError,
    notice,
    statusRef,
    rescheduleRef,
    confirmCancel,
    confirmReschedule,
    closeDialog: () => setDialog(null),
    togglePicker: () => {
      setNotice(null);
      setPickerError(null);
      setPicking((p) => !p);
    },
    closePicker: () => {
      setPicking(false);
      requestAnimationFrame(() => rescheduleRef.current?.focus());
    },
    askCancel: () => {
      setNotice(null);
      setDialogError(null);
      setDialog({ kind: 'cancel' });
    },
    askReschedule: (date: string, slot: PickerSlot) => {
      setDialogError(null);
      setPickerError(null);
      setDialog({ kind: 'reschedule', date, slot });
    },
  };
}

export type BookingChange = ReturnType<typeof useBookingChange>;
