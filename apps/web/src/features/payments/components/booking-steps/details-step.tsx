import { PLATFORM_FEE_XAF } from '@qless/contract/core';
import type { FormEvent, Ref } from 'react';
import { Field } from '../../../../components/form/field';
import { useI18n } from '../../../../i18n/i18n';
import { type Customer, type FieldErrors, validateCustomer } from '../../lib/booking-wizard';

interface Props {
  titleId: string;
  formRef: Ref<HTMLFormElement>;
  /** Service, organization, date and time of the chosen slot. */
  summary: { service: string; organization: string; when: string };
  customer: Customer;
  errors: FieldErrors;
  onEdit: (field: keyof Customer, value: string) => void;
  onSubmit: () => void;
  onCancel: () => void;
}

export function DetailsStep({
  titleId,
  formRef,
  summary,
  customer,
  errors,
  onEdit,
  onSubmit,
  onCancel,
}: Props) {
  const { t, money } = useI18n();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const firstInvalid = (Object.keys(validateCustomer(customer)) as (keyof Customer)[])[0];
    if (firstInvalid) {
      event.currentTarget.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
    }
    onSubmit();
  };

  return (
    <form ref={formRef} noValidate onSubmit={submit} className="booking__form">
      <h2 id={titleId} className="modal__title">
        {t('slots.title')}
      </h2>
      <div className="booking__slot">
        <strong>{summary.service}</strong>
        <span>
          {summary.organization} · {summary.when}
        </span>
      </div>
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
            onChange={(e) => onEdit('username', e.target.value)}
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
            onChange={(e) => onEdit('email', e.target.value)}
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
              onChange={(e) => onEdit('phone', e.target.value)}
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
            onChange={(e) => onEdit('serviceFee', e.target.value)}
          >
            <option value="" disabled>
              {t('booking.fee.placeholder')}
            </option>
            <option value={String(PLATFORM_FEE_XAF)}>{money(PLATFORM_FEE_XAF)}</option>
          </select>
        )}
      </Field>
      <div className="modal__actions">
        <button type="button" className="btn btn--secondary" onClick={onCancel}>
          {t('booking.cancel')}
        </button>
        <button type="submit" className="btn btn--primary">
          {t('booking.next')}
        </button>
      </div>
    </form>
  );
}
