import type { Organization, PaymentStatusMessage, Service, Slot, Ticket } from '@qless/contract';
import {
  CURRENCY,
  formatMinutes,
  PAYMENT_DESCRIPTION,
  PLATFORM_FEE_XAF,
  wireToMinutes,
} from '@qless/contract/core';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Field } from '../../../components/ui/field';
import { Icon } from '../../../components/ui/icon';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { initiatePayment } from '../api/initiate-payment';
import { usePaymentStatus } from '../api/watch-payment';
import { isRetryableWithSameReference, paymentErrorKey } from '../lib/error-message';
import { formatLocalPhone, isEmail, toPaymentPhone } from '../lib/phone';
import { PAYMENT_ID_KEY, PAYMENT_STATUS_KEY, writeStorage } from '../lib/storage';
import './booking.css';

export interface Customer {
  username: string;
  email: string;
  phone: string;
  serviceFee: string;
}

type Step = 1 | 2 | 3 | 4 | 5 | 6;
type FieldErrors = Partial<Record<keyof Customer, MessageKey>>;

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

const EMPTY: Customer = { username: '', email: '', phone: '', serviceFee: '' };

function newReference(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `ref-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
}

export function validateCustomer(c: Customer): FieldErrors {
  const errors: FieldErrors = {};
  if (!c.username.trim()) errors.username = 'validation.required';
  if (!c.email.trim()) errors.email = 'validation.required';
  else if (!isEmail(c.email)) errors.email = 'validation.email';
  if (!c.phone.trim()) errors.phone = 'validation.required';
  else if (!toPaymentPhone(c.phone)) errors.phone = 'validation.phone';
  if (c.serviceFee !== String(PLATFORM_FEE_XAF)) errors.serviceFee = 'validation.fee';
  return errors;
}

export function BookingModal(props: Props) {
  const { organization, service, slot, date } = props;
  const { t, intlLocale } = useI18n();
  const titleId = useId();
  const [step, setStep] = useState<Step>(1);
  const [customer, setCustomer] = useState<Customer>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitError, setSubmitError] = useState<MessageKey | null>(null);
  const [busy, setBusy] = useState(false);
  const [paymentId, setPaymentId] = useState<string | null>(null);
  const [ussd, setUssd] = useState<string | null>(null);
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [downloadError, setDownloadError] = useState(false);
  const reference = useRef(newReference());
  const headingRef = useRef<HTMLHeadingElement>(null);
  const time = formatMinutes(wireToMinutes(slot.start_time));
  const longDate = new Intl.DateTimeFormat(intlLocale, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
  const phoneE164 = toPaymentPhone(customer.phone) ?? customer.phone;

  // Move focus to each step's heading so screen readers and keyboards follow the wizard.
  useEffect(() => {
    if (step > 1) headingRef.current?.focus();
  }, [step]);

  usePaymentStatus(paymentId, (message: PaymentStatusMessage) => {
    if (message.status === 'SUCCESSFUL') {
      writeStorage(PAYMENT_STATUS_KEY, 'SUCCESSFUL');
      setTicket(message.ticket);
      setPaymentId(null);
      setStep(4);
      props.onPaid();
    } else if (message.status === 'FAILED') {
      setPaymentId(null);
      setStep(5);
    }
  });

  const update = (field: keyof Customer, value: string) => {
    setCustomer((c) => ({ ...c, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onDetails = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateCustomer(customer);
    setErrors(found);
    const firstInvalid = (Object.keys(found) as (keyof Customer)[])[0];
    if (firstInvalid) {
      event.currentTarget.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    reference.current = newReference();
    setSubmitError(null);
    setStep(2);
  };

  const pay = async () => {
    const phone = toPaymentPhone(customer.phone);
    if (!phone) {
      setStep(1);
      setErrors({ phone: 'validation.phone' });
      return;
    }
    setBusy(true);
    setSubmitError(null);
    try {
      const payment = await initiatePayment({
        cus_name: customer.username.trim(),
        cus_email: customer.email.trim(),
        phone_number: phone,
        amount: PLATFORM_FEE_XAF,
        currency: CURRENCY,
        description: PAYMENT_DESCRIPTION,
        reference: reference.current,
        service_id: service.service_id,
        slot_id: slot.id,
        date,
      });
      writeStorage(PAYMENT_ID_KEY, payment.payment_id);
      setUssd(payment.ussd_code);
      setPaymentId(payment.payment_id);
      setStep(3);
    } catch (error) {
      setSubmitError(paymentErrorKey(error));
      if (!isRetryableWithSameReference(error)) reference.current = newReference();
    } finally {
      setBusy(false);
    }
  };

  const tryAgain = () => {
    reference.current = newReference();
    setSubmitError(null);
    setStep(2);
  };

  const download = async () => {
    if (!ticket) return;
    setBusy(true);
    setDownloadError(false);
    try {
      await props.onDownloadTicket(ticket);
      // Spec: Download closes the modal and the wizard starts over with an empty form.
      setStep(1);
      setCustomer(EMPTY);
      props.onClose();
    } catch {
      setDownloadError(true);
    } finally {
      setBusy(false);
    }
  };

  const heading = (key: MessageKey) => (
    <h2 id={titleId} ref={headingRef} tabIndex={-1} className="modal__title">
      {t(key)}
    </h2>
  );

  const summary = (
    <div className="booking__slot">
      <strong>{service.service_name}</strong>
      <span>
        {organization.name} · {longDate} · {time}
      </span>
    </div>
  );

  let body: ReactNode;
  if (step === 1) {
    body = (
      <form noValidate onSubmit={onDetails} className="booking__form">
        <h2 id={titleId} className="modal__title">
          {t('slots.title')}
        </h2>
        {summary}
        <p className="booking__intro">{t('booking.details.intro')}</p>
        <Field label={t('booking.username')} error={errors.username && t(errors.username)}>
          {(ids) => (
            <input
              {...ids}
              name="username"
              type="text"
              autoComplete="name"
              className="input"
              required
              value={customer.username}
              onChange={(e) => update('username', e.target.value)}
            />
          )}
        </Field>
        <Field label={t('booking.email')} error={errors.email && t(errors.email)}>
          {(ids) => (
            <input
              {...ids}
              name="email"
              type="email"
              autoComplete="email"
              className="input"
              required
              value={customer.email}
              onChange={(e) => update('email', e.target.value)}
            />
          )}
        </Field>
        <Field
          label={t('booking.phone')}
          hint={t('booking.phone.hint')}
          error={errors.phone && t(errors.phone)}
        >
          {(ids) => (
            <div className="phone-input">
              <span className="phone-input__prefix" aria-hidden="true">
                +237
              </span>
              <input
                {...ids}
                name="phone"
                type="tel"
                inputMode="numeric"
                autoComplete="tel-national"
                className="input"
                placeholder={t('booking.phone.placeholder')}
                required
                value={customer.phone}
                onChange={(e) => update('phone', e.target.value)}
              />
            </div>
          )}
        </Field>
        <Field label={t('booking.fee')} error={errors.serviceFee && t(errors.serviceFee)}>
          {(ids) => (
            <select
              {...ids}
              name="serviceFee"
              className="input"
              required
              value={customer.serviceFee}
              onChange={(e) => update('serviceFee', e.target.value)}
            >
              <option value="" disabled>
                {t('booking.fee.placeholder')}
              </option>
              <option value={String(PLATFORM_FEE_XAF)}>
                {t('booking.fee.option', { fee: PLATFORM_FEE_XAF, currency: CURRENCY })}
              </option>
            </select>
          )}
        </Field>
        <div className="modal__actions">
          <button type="button" className="btn btn--secondary" onClick={props.onClose}>
            {t('booking.cancel')}
          </button>
          <button type="submit" className="btn btn--primary">
            {t('booking.next')}
          </button>
        </div>
      </form>
    );
  } else if (step === 2) {
    body = (
      <>
        {heading('booking.confirm.title')}
        <Rows
          rows={[
            ['booking.row.organization', organization.name],
            ['booking.row.location', organization.location],
            ['booking.row.service', service.service_name],
            ['booking.row.appointmentDate', `${longDate}, ${time}`],
            ['booking.row.username', customer.username.trim()],
            ['booking.row.email', customer.email.trim()],
            ['booking.row.phoneNumber', `+237 ${formatLocalPhone(phoneE164)}`],
            ['booking.row.fee', `${PLATFORM_FEE_XAF} ${CURRENCY}`],
          ]}
        />
        {submitError ? <Alert tone="error">{t(submitError)}</Alert> : null}
        <div className="modal__actions">
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => setStep(1)}
            disabled={busy}
          >
            {t('booking.back')}
          </button>
          <button type="button" className="btn btn--primary" onClick={pay} disabled={busy}>
            {busy
              ? t('booking.paying')
              : t('booking.pay', { fee: PLATFORM_FEE_XAF, currency: CURRENCY })}
          </button>
        </div>
      </>
    );
  } else if (step === 3) {
    body = (
      <>
        {heading('booking.processing.title')}
        <Spinner label={t('booking.processing.body')} />
        {ussd ? (
          <p className="booking__hint">{t('booking.processing.ussd', { code: ussd })}</p>
        ) : null}
      </>
    );
  } else if (step === 4) {
    body = (
      <div className="booking__result">
        <StatusIcon ok />
        {heading('booking.success.title')}
        {ticket ? (
          <>
            <p>{t('booking.success.body')}</p>
            <div className="modal__actions modal__actions--center">
              <button type="button" className="btn btn--primary" onClick={() => setStep(6)}>
                {t('booking.viewTicket')}
              </button>
            </div>
          </>
        ) : (
          // Paid, but the hold had lapsed and someone took the slot: the server recorded a refund.
          <p role="alert">{t('booking.success.refund')}</p>
        )}
      </div>
    );
  } else if (step === 5) {
    body = (
      <div className="booking__result">
        <StatusIcon ok={false} />
        {heading('booking.failed.title')}
        <p>{t('booking.failed.body')}</p>
        <div className="modal__actions modal__actions--center">
          <button type="button" className="btn btn--primary" onClick={tryAgain}>
            {t('booking.tryAgain')}
          </button>
        </div>
      </div>
    );
  } else {
    body = (
      <>
        {heading('booking.ticket.title')}
        <Rows
          rows={[
            ['booking.row.organization', ticket?.organization ?? organization.name],
            ['booking.row.location', ticket?.location ?? organization.location],
            ['booking.row.service', ticket?.service ?? service.service_name],
            ['booking.row.date', `${longDate}, ${ticket?.time ?? time}`],
            ['booking.row.username', ticket?.customer_name ?? customer.username.trim()],
            ['booking.row.email', ticket?.email ?? customer.email.trim()],
            ['booking.row.phone', ticket?.phone ?? phoneE164],
            ...(ticket ? ([['booking.row.code', ticket.code]] as const) : []),
          ]}
        />
        {downloadError ? <Alert tone="error">{t('booking.downloadFailed')}</Alert> : null}
        <div className="modal__actions">
          <button
            type="button"
            className="btn btn--primary btn--block"
            onClick={download}
            disabled={busy || !ticket}
          >
            <DownloadIcon />
            {busy ? t('booking.downloading') : t('booking.download')}
          </button>
        </div>
      </>
    );
  }

  return (
    <Modal labelledBy={titleId} onClose={props.onClose} closeLabel={t('booking.close')}>
      <p className="booking__step">
        {t('booking.step', { n: step === 6 ? 4 : Math.min(step, 3), total: 4 })}
      </p>
      <div className="booking" data-step={step}>
        {body}
      </div>
    </Modal>
  );
}

function Rows({ rows }: { rows: readonly (readonly [MessageKey, string])[] }) {
  const { t } = useI18n();
  return (
    <dl className="rows">
      {rows.map(([key, value]) => (
        <div key={key} className="rows__row">
          <dt>{t(key)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function StatusIcon({ ok }: { ok: boolean }) {
  return (
    <span
      className={ok ? 'status-icon status-icon--ok' : 'status-icon status-icon--fail'}
      aria-hidden="true"
    >
      <Icon size={32} strokeWidth={2.5}>
        <path d={ok ? 'm5 12.5 4.5 4.5L19 7.5' : 'M7 7l10 10M17 7 7 17'} />
      </Icon>
    </span>
  );
}

function DownloadIcon() {
  return (
    <Icon>
      <path d="M12 4v11m0 0-4.5-4.5M12 15l4.5-4.5M5 20h14" />
    </Icon>
  );
}
