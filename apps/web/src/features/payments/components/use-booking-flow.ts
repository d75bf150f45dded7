import type { PaymentStatusMessage } from '@qless/contract';
import {
  CURRENCY,
  formatMinutes,
  PAYMENT_DESCRIPTION,
  PLATFORM_FEE_XAF,
  wireToMinutes,
} from '@qless/contract/core';
import { useEffect, useReducer, useRef, useState } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { type DeviceBooking, saveDeviceBooking } from '../../../lib/device-bookings';
import { placeLabel } from '../../../lib/place-label';
import { cancelPayment } from '../api/cancel-payment';
import { getPaymentStatus } from '../api/get-payment-status';
import { initiatePayment } from '../api/initiate-payment';
import { usePaymentStatus } from '../api/watch-payment';
import {
  type CancelMode,
  EMPTY_CUSTOMER,
  type PaymentRef,
  prefilledWizardState,
  wizardReducer,
} from '../lib/booking-wizard';
import {
  cancelErrorKey,
  isRetryableWithSameReference,
  paymentErrorKey,
} from '../lib/error-message';
import { ussdCodeFor } from '../lib/phone';
import {
  clearResumeMarker,
  ownPendingOnSlot,
  paymentRefOf,
  readResumeMarker,
  recordStatus,
  writeResumeMarker,
} from '../lib/resume';
import { PAYMENT_ID_KEY, PAYMENT_STATUS_KEY, writeStorage } from '../lib/storage';
import type { BookingModalProps } from './booking-modal';

/** A new payment reference: a retry that may not reuse the last one gets another. */
export function newReference(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `ref-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
}

const isNotPending = (error: unknown) =>
  error instanceof ApiError && error.code === 'PAYMENT_NOT_PENDING';

/**
 * The booking's payment from the customer's side: the wizard's state, resuming a payment
 * made earlier on this device, paying, following the status live, releasing the hold,
 * closing and downloading the ticket.
 */
export function useBookingFlow(props: BookingModalProps) {
  const { organization, service, slot, date } = props;
  const { locale } = useI18n();
  const [state, dispatch] = useReducer(wizardReducer, props.prefill, prefilledWizardState);
  const [resuming, setResuming] = useState(Boolean(props.resume));
  const [ownHold, setOwnHold] = useState<DeviceBooking | null>(null);
  /** The booking this modal has followed, so closing forgets only its own resume marker. */
  const followed = useRef<string | null>(props.resume?.booking_id ?? null);
  const time = formatMinutes(wireToMinutes(slot.start_time));

  const resumeFrom = async (entry: DeviceBooking) => {
    const marker = readResumeMarker();
    const mine = marker?.booking_id === entry.booking_id ? marker : null;
    const payment = paymentRefOf(entry, marker);
    followed.current = entry.booking_id;
    let message: PaymentStatusMessage | null = null;
    try {
      message = await getPaymentStatus(entry.payment_id);
      recordStatus(entry.booking_id, message);
    } catch {
      // Offline or unknown for now: follow it live from "Processing Payment".
    }
    if (message?.status === 'SUCCESSFUL') onSucceeded();
    dispatch({
      type: 'resume',
      customer: mine?.customer ?? EMPTY_CUSTOMER,
      phone: mine?.phone ?? '',
      payment,
      message,
    });
    setResuming(false);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: resumes once, on opening.
  useEffect(() => {
    if (props.resume) void resumeFrom(props.resume);
  }, []);

  const onSucceeded = () => {
    writeStorage(PAYMENT_STATUS_KEY, 'SUCCESSFUL');
    props.onPaid();
  };

  const onStatus = (payment: PaymentRef, message: PaymentStatusMessage) => {
    recordStatus(payment.bookingId, message);
    dispatch({ type: 'status', message });
    if (message.status === 'SUCCESSFUL') onSucceeded();
  };
  const watched = state.step === 'processing' ? state.payment : null;
  usePaymentStatus(watched?.paymentId ?? null, (message) => {
    if (watched) onStatus(watched, message);
  });

  const pay = async () => {
    if (state.step !== 'confirm' || state.paying) return;
    const { customer, phone, reference } = state;
    dispatch({ type: 'payStarted' });
    setOwnHold(null);
    try {
      const payment = await initiatePayment({
        cus_name: customer.username.trim(),
        cus_email: customer.email.trim(),
        phone_number: phone,
        amount: PLATFORM_FEE_XAF,
        currency: CURRENCY,
        description: PAYMENT_DESCRIPTION,
        reference,
        service_id: service.service_id,
        slot_id: slot.id,
        date,
        locale,
      });
      // Kept on this device: "My bookings", the ticket link, and coming back to this payment.
      saveDeviceBooking({
        booking_id: payment.booking_id,
        payment_id: payment.payment_id,
        access_key: payment.access_key,
        code: null,
        service_id: service.service_id,
        slot_id: slot.id,
        organization: placeLabel(organization),
        service: service.service_name,
        date,
        time,
        hold_expires_at: payment.hold_expires_at,
        state: 'pending',
        saved_at: new Date().toISOString(),
      });
      writeResumeMarker({
        booking_id: payment.booking_id,
        customer,
        phone,
        ussd: ussdCodeFor(phone),
      });
      writeStorage(PAYMENT_ID_KEY, payment.payment_id);
      followed.current = payment.booking_id;
      dispatch({
        type: 'payInitiated',
        payment: {
          paymentId: payment.payment_id,
          bookingId: payment.booking_id,
          accessKey: payment.access_key,
          holdExpiresAt: payment.hold_expires_at,
          ussd: ussdCodeFor(phone),
        },
      });
    } catch (error) {
      const own =
        error instanceof ApiError && error.code === 'SLOT_TAKEN'
          ? ownPendingOnSlot(slot.id, date, new Date())
          : null;
      setOwnHold(own);
      dispatch({
        type: 'payFailed',
        error: paymentErrorKey(error, { ownHold: own !== null }),
        keepReference: isRetryableWithSameReference(error),
        reference: newReference(),
      });
    }
  };

  /** "Cancel payment", "Use another number", or "Try Again" once the time ran out. */
  const release = async (mode: CancelMode) => {
    if (state.step !== 'processing' || state.cancelling) return;
    const { payment } = state;
    dispatch({ type: 'cancelStarted', mode });
    const released = (message: PaymentStatusMessage) => {
      recordStatus(payment.bookingId, message);
      clearResumeMarker(payment.bookingId);
      props.onReleased();
      dispatch({ type: 'cancelled', reference: newReference() });
      if (mode === 'cancel') props.onClose();
    };
    try {
      released(await cancelPayment(payment.paymentId, payment.accessKey));
    } catch (error) {
      if (isNotPending(error)) {
        // It settled meanwhile: a failure released the hold anyway; a success wins.
        const message = await getPaymentStatus(payment.paymentId).catch(() => null);
        if (message?.status === 'FAILED') return released(message);
        if (message?.status === 'SUCCESSFUL') {
          dispatch({ type: 'cancelFailed', error: null });
          return onStatus(payment, message);
        }
      }
      dispatch({ type: 'cancelFailed', error: cancelErrorKey(error) });
    }
  };

  const close = () => {
    // Leaving a payment in flight or just paid keeps it to come back to (resume); leaving
    // anywhere else ends it.
    if (state.step !== 'processing' && state.step !== 'paid' && followed.current) {
      clearResumeMarker(followed.current);
    }
    props.onClose();
  };

  const download = async () => {
    if (state.step !== 'ticket' || state.downloading) return;
    dispatch({ type: 'downloadStarted' });
    try {
      await props.onDownloadTicket(state.ticket);
      if (followed.current) clearResumeMarker(followed.current);
      // Spec: Download closes the modal and the wizard starts over with an empty form.
      dispatch({ type: 'downloaded' });
      props.onClose();
    } catch {
      dispatch({ type: 'downloadFailed' });
    }
  };

  return {
    state,
    dispatch,
    resuming,
    pay,
    release,
    close,
    download,
    /** "Resume it" after SLOT_TAKEN, when the slot is held by this device's own payment. */
    resumeOwn:
      ownHold && state.step === 'confirm' && state.submitError === 'booking.error.ownHold'
        ? () => {
            setResuming(true);
            void resumeFrom(ownHold);
          }
        : null,
  };
}
