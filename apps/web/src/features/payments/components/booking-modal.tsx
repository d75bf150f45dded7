import type { Organization, PaymentStatusMessage, Service, Slot, Ticket } from '@qless/contract';
import {
  CURRENCY,
  formatMinutes,
  PAYMENT_DESCRIPTION,
  PLATFORM_FEE_XAF,
  wireToMinutes,
} from '@qless/contract/core';
import { type ReactNode, useEffect, useId, useReducer, useRef, useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { type DeviceBooking, saveDeviceBooking } from '../../../lib/device-bookings';
import { cancelPayment } from '../api/cancel-payment';
import { getPaymentStatus } from '../api/get-payment-status';
import { initiatePayment } from '../api/initiate-payment';
import { usePaymentStatus } from '../api/watch-payment';
import {
  type CancelMode,
  EMPTY_CUSTOMER,
  initialWizardState,
  type PaymentRef,
  STEP_COUNT,
  screenNumber,
  stepNumber,
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
import { ConfirmStep } from './booking-steps/confirm-step';
import { DetailsStep } from './booking-steps/details-step';
import { ProcessingStep } from './booking-steps/processing-step';
import { FailedStep, PaidStep } from './booking-steps/result-step';
import { TicketStep } from './booking-steps/ticket-step';
import './booking.css';

interface Props {
  organization: Organization;
  service: Service;
  slot: Slot;
  /** yyyy-MM-dd */
  date: string;
  /** A booking made earlier on this device: the modal opens where its payment stands. */
  resume?: DeviceBooking | null;
  onClose: () => void;
  /** Called once a payment is SUCCESSFUL, so the slot list reloads. */
  onPaid: () => void;
  /** Called once the customer's own pending payment was released, so the slot list reloads. */
  onReleased: () => void;
  onDownloadTicket: (ticket: Ticket) => Promise<void>;
  /** Hrefs of the ticket page and of "My bookings" (the app owns its paths). */
  links: { ticket: (code: string, accessKey: string) => string; myBookings: string };
}

function newReference(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `ref-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
}

const isNotPending = (error: unknown) =>
  error instanceof ApiError && error.code === 'PAYMENT_NOT_PENDING';

export function BookingModal(props: Props) {
  const { organization, service, slot, date } = props;
  const { t, intlLocale, locale } = useI18n();
  const titleId = useId();
  const [state, dispatch] = useReducer(wizardReducer, initialWizardState);
  const [resuming, setResuming] = useState(Boolean(props.resume));
  const [ownHold, setOwnHold] = useState<DeviceBooking | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  /** The booking this modal has followed, so closing forgets only its own resume marker. */
  const followed = useRef<string | null>(props.resume?.booking_id ?? null);
  const time = formatMinutes(wireToMinutes(slot.start_time));
  const longDate = formatDate(date, intlLocale, LONG_DATE);
  const screen = screenNumber(state);
  const detailsFocus = state.step === 'details' ? state.focus : null;

  // Focus follows the wizard: the form's field on step 1 (the name when the modal opens, the
  // number after "Use another number"), each later step's heading, so screen readers follow.
  // This runs after the dialog's own showModal() focus, which it overrides.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again on each new screen.
  useEffect(() => {
    if (resuming) return;
    if (detailsFocus) {
      formRef.current?.querySelector<HTMLElement>(`[name="${detailsFocus}"]`)?.focus();
    } else {
      headingRef.current?.focus();
    }
  }, [screen, resuming, detailsFocus]);

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
        organization: organization.name,
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

  const heading = { titleId, headingRef };
  let body: ReactNode;
  if (resuming) {
    body = (
      <>
        <h2 id={titleId} className="modal__title">
          {t('booking.processing.title')}
        </h2>
        <Spinner label={t('common.loading')} />
      </>
    );
  } else {
    switch (state.step) {
      case 'details':
        body = (
          <DetailsStep
            titleId={titleId}
            formRef={formRef}
            summary={{
              service: service.service_name,
              organization: organization.name,
              when: `${longDate} · ${time}`,
            }}
            customer={state.customer}
            errors={state.errors}
            onEdit={(field, value) => dispatch({ type: 'edit', field, value })}
            onSubmit={() => dispatch({ type: 'submitDetails', reference: newReference() })}
            onCancel={close}
          />
        );
        break;
      case 'confirm':
        body = (
          <ConfirmStep
            {...heading}
            organization={organization}
            service={service}
            when={`${longDate}, ${time}`}
            customer={state.customer}
            phone={state.phone}
            paying={state.paying}
            submitError={state.submitError}
            onBack={() => dispatch({ type: 'back' })}
            onPay={pay}
            onResumeOwn={
              ownHold && state.submitError === 'booking.error.ownHold'
                ? () => {
                    setResuming(true);
                    void resumeFrom(ownHold);
                  }
                : null
            }
          />
        );
        break;
      case 'processing':
        body = (
          <ProcessingStep
            {...heading}
            payment={state.payment}
            cancelling={state.cancelling}
            cancelError={state.cancelError}
            onRelease={release}
          />
        );
        break;
      case 'paid':
        body = (
          <PaidStep
            {...heading}
            hasTicket={state.ticket !== null}
            onViewTicket={() => dispatch({ type: 'viewTicket' })}
          />
        );
        break;
      case 'failed':
        body = (
          <FailedStep
            {...heading}
            reason={state.reason}
            onTryAgain={() => dispatch({ type: 'tryAgain', reference: newReference() })}
          />
        );
        break;
      case 'ticket':
        body = (
          <TicketStep
            {...heading}
            ticket={state.ticket}
            longDate={formatDate(state.ticket.date, intlLocale, LONG_DATE)}
            downloading={state.downloading}
            downloadError={state.downloadError}
            onDownload={download}
            ticketHref={props.links.ticket(state.ticket.code, state.accessKey)}
            myBookingsHref={props.links.myBookings}
          />
        );
        break;
    }
  }

  return (
    <Modal labelledBy={titleId} onClose={close} closeLabel={t('booking.close')}>
      <p className="booking__step">
        {t('booking.step', { n: stepNumber(state), total: STEP_COUNT })}
      </p>
      <div className="booking" data-step={resuming ? 'resuming' : screen}>
        {body}
      </div>
    </Modal>
  );
}
