import type { Organization, PaymentStatusMessage, Service, Slot, Ticket } from '@qless/contract';
import {
  CURRENCY,
  formatMinutes,
  PAYMENT_DESCRIPTION,
  PLATFORM_FEE_XAF,
  wireToMinutes,
} from '@qless/contract/core';
import { type ReactNode, useEffect, useId, useReducer, useRef } from 'react';
import { Modal } from '../../../components/ui/modal';
import { useI18n } from '../../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { initiatePayment } from '../api/initiate-payment';
import { usePaymentStatus } from '../api/watch-payment';
import {
  initialWizardState,
  STEP_COUNT,
  screenNumber,
  stepNumber,
  wizardReducer,
} from '../lib/booking-wizard';
import { isRetryableWithSameReference, paymentErrorKey } from '../lib/error-message';
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
  onClose: () => void;
  /** Called once a payment is SUCCESSFUL, so the slot list reloads. */
  onPaid: () => void;
  onDownloadTicket: (ticket: Ticket) => Promise<void>;
}

function newReference(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `ref-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
}

export function BookingModal(props: Props) {
  const { organization, service, slot, date } = props;
  const { t, intlLocale } = useI18n();
  const titleId = useId();
  const [state, dispatch] = useReducer(wizardReducer, initialWizardState);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const time = formatMinutes(wireToMinutes(slot.start_time));
  const longDate = formatDate(date, intlLocale, LONG_DATE);
  const screen = screenNumber(state);

  // Move focus to each step's heading so screen readers and keyboards follow the wizard.
  useEffect(() => {
    if (screen > 1) headingRef.current?.focus();
  }, [screen]);

  const onStatus = (message: PaymentStatusMessage) => {
    if (message.status === 'SUCCESSFUL') writeStorage(PAYMENT_STATUS_KEY, 'SUCCESSFUL');
    dispatch({ type: 'status', message });
    if (message.status === 'SUCCESSFUL') props.onPaid();
  };
  usePaymentStatus(state.step === 'processing' ? state.paymentId : null, onStatus);

  const pay = async () => {
    if (state.step !== 'confirm' || state.paying) return;
    dispatch({ type: 'payStarted' });
    try {
      const payment = await initiatePayment({
        cus_name: state.customer.username.trim(),
        cus_email: state.customer.email.trim(),
        phone_number: state.phone,
        amount: PLATFORM_FEE_XAF,
        currency: CURRENCY,
        description: PAYMENT_DESCRIPTION,
        reference: state.reference,
        service_id: service.service_id,
        slot_id: slot.id,
        date,
      });
      writeStorage(PAYMENT_ID_KEY, payment.payment_id);
      dispatch({ type: 'payInitiated', paymentId: payment.payment_id, ussd: payment.ussd_code });
    } catch (error) {
      dispatch({
        type: 'payFailed',
        error: paymentErrorKey(error),
        keepReference: isRetryableWithSameReference(error),
        reference: newReference(),
      });
    }
  };

  const download = async () => {
    if (state.step !== 'ticket' || state.downloading) return;
    dispatch({ type: 'downloadStarted' });
    try {
      await props.onDownloadTicket(state.ticket);
      // Spec: Download closes the modal and the wizard starts over with an empty form.
      dispatch({ type: 'downloaded' });
      props.onClose();
    } catch {
      dispatch({ type: 'downloadFailed' });
    }
  };

  const heading = { titleId, headingRef };
  let body: ReactNode;
  switch (state.step) {
    case 'details':
      body = (
        <DetailsStep
          titleId={titleId}
          summary={{
            service: service.service_name,
            organization: organization.name,
            when: `${longDate} · ${time}`,
          }}
          customer={state.customer}
          errors={state.errors}
          onEdit={(field, value) => dispatch({ type: 'edit', field, value })}
          onSubmit={() => dispatch({ type: 'submitDetails', reference: newReference() })}
          onCancel={props.onClose}
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
        />
      );
      break;
    case 'processing':
      body = <ProcessingStep {...heading} ussd={state.ussd} />;
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
          onTryAgain={() => dispatch({ type: 'tryAgain', reference: newReference() })}
        />
      );
      break;
    case 'ticket':
      body = (
        <TicketStep
          {...heading}
          ticket={state.ticket}
          longDate={longDate}
          downloading={state.downloading}
          downloadError={state.downloadError}
          onDownload={download}
        />
      );
      break;
  }

  return (
    <Modal labelledBy={titleId} onClose={props.onClose} closeLabel={t('booking.close')}>
      <p className="booking__step">
        {t('booking.step', { n: stepNumber(state), total: STEP_COUNT })}
      </p>
      <div className="booking" data-step={screen}>
        {body}
      </div>
    </Modal>
  );
}
