import { PLATFORM_FEE_XAF } from '@qless/contract/core';
import type { ChangeEvent, FormEvent, Ref } from 'react';
import { Field, InputField } from '../../../../components/form/field';
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

  /** A field's name, value, edit and error, to spread on its control. */
  const bind = (field: keyof Customer) => ({
    name: field,
    value: customer[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => onEdit(field, event.target.value),
    error: errors[field] && t(errors[field]),
  });

  const phone = bind('phone');

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
      <InputField
        label={t('booking.username')}
        {...bind('username')}
        type="text"
        autoComplete="name"
        required
      />
      <InputField
        label={t('booking.email')}
        hint={t('booking.email.hint')}
        {...bind('email')}
        type="email"
        autoComplete="email"
      />
      <Field label={t('booking.phone')} hint={t('booking.phone.hint')} error={phone.error}>
        {(ids) => (
          <div className="phone-input">
            <span className="phone-input__prefix" aria-hidden="true">
              +237
            </span>
            <input
              {...ids}
              name={phone.name}
              value={phone.value}
              onChange={phone.onChange}
              type="tel"
              inputMode="numeric"
              autoComplete="tel-national"
              className="input"
              placeholder={t('booking.phone.placeholder')}
              required
            />
          </div>
        )}
      </Field>
      <p className="booking__fee-line" data-fee>
        <span>{t('booking.fee')}</span>
        <strong>{money(PLATFORM_FEE_XAF)}</strong>
      </p>
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
