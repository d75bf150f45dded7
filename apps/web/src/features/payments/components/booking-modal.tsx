import type { Organization, Service, Slot, Ticket } from '@qless/contract';
import { formatMinutes, wireToMinutes } from '@qless/contract/core';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import type { DeviceBooking } from '../../../lib/device-bookings';
import { placeLabel } from '../../../lib/place-label';
import { type Customer, STEP_COUNT, screenNumber, stepNumber } from '../lib/booking-wizard';
import { ConfirmStep } from './booking-steps/confirm-step';
import { DetailsStep } from './booking-steps/details-step';
import { ProcessingStep } from './booking-steps/processing-step';
import { FailedStep, PaidStep } from './booking-steps/result-step';
import { TicketStep } from './booking-steps/ticket-step';
import { newReference, useBookingFlow } from './use-booking-flow';
import './booking.css';

export interface BookingModalProps {
  organization: Organization;
  service: Service;
  slot: Slot;
  /** yyyy-MM-dd */
  date: string;
  /** A booking made earlier on this device: the modal opens where its payment stands. */
  resume?: DeviceBooking | null;
  /** What the form starts with: the number a waitlist offer's link carries. */
  prefill?: Partial<Customer> | null;
  onClose: () => void;
  /** Called once a payment is SUCCESSFUL, so the slot list reloads. */
  onPaid: () => void;
  /** Called once the customer's own pending payment was released, so the slot list reloads. */
  onReleased: () => void;
  onDownloadTicket: (ticket: Ticket) => Promise<void>;
  /** Hrefs of the ticket page and of "My bookings" (the app owns its paths). */
  links: { ticket: (code: string, accessKey: string) => string; myBookings: string };
}

export function BookingModal(props: BookingModalProps) {
  const { organization, service, slot, date } = props;
  const { t, intlLocale } = useI18n();
  const titleId = useId();
  const { state, dispatch, resuming, pay, release, close, download, resumeOwn } =
    useBookingFlow(props);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
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
              organization: placeLabel(organization),
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
            onResumeOwn={resumeOwn}
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
