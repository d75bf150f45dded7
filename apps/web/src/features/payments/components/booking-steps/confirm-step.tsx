import type { Organization, Service } from '@qless/contract';
import { PLATFORM_FEE_XAF } from '@qless/contract/core';
import type { Ref } from 'react';
import { Alert } from '../../../../components/ui/alert';
import type { MessageKey } from '../../../../i18n/en';
import { useI18n } from '../../../../i18n/i18n';
import { formatLocalPhone } from '../../../../lib/phone-format';
import { placeLabel } from '../../../../lib/place-label';
import type { Customer } from '../../lib/booking-wizard';
import { NO_VALUE, Rows, StepHeading } from './step-parts';

interface Props {
  titleId: string;
  headingRef: Ref<HTMLHeadingElement>;
  organization: Organization;
  service: Service;
  /** "Monday 16 March 2026, 09:30" */
  when: string;
  customer: Customer;
  /** E.164 */
  phone: string;
  paying: boolean;
  submitError: MessageKey | null;
  onBack: () => void;
  onPay: () => void;
  /** Set when the slot is held by this device's own payment in flight: reopens it. */
  onResumeOwn: (() => void) | null;
}

export function ConfirmStep(props: Props) {
  const { t, money } = useI18n();
  const { organization, customer, paying } = props;
  const fee = money(PLATFORM_FEE_XAF);
  return (
    <>
      <StepHeading id={props.titleId} headingRef={props.headingRef}>
        {t('booking.confirm.title')}
      </StepHeading>
      <Rows
        rows={[
          ['booking.row.organization', placeLabel(organization)],
          ['booking.row.location', organization.location],
          ['booking.row.service', props.service.service_name],
          ['booking.row.appointmentDate', props.when],
          ['booking.row.username', customer.username.trim()],
          ['booking.row.email', customer.email.trim() || NO_VALUE],
          ['booking.row.phoneNumber', `+237 ${formatLocalPhone(props.phone)}`],
          ['booking.row.fee', fee],
        ]}
      />
      <p className="booking__fee-note">{t('booking.confirm.feeNote', { amount: fee })}</p>
      {props.submitError ? <Alert tone="error">{t(props.submitError)}</Alert> : null}
      {props.onResumeOwn ? (
        <div className="modal__actions">
          <button type="button" className="btn btn--secondary" onClick={props.onResumeOwn}>
            {t('booking.resumeOwn')}
          </button>
        </div>
      ) : null}
      <div className="modal__actions">
        <button
          type="button"
          className="btn btn--secondary"
          onClick={props.onBack}
          disabled={paying}
        >
          {t('booking.back')}
        </button>
        <button type="button" className="btn btn--primary" onClick={props.onPay} disabled={paying}>
          {paying ? t('booking.paying') : t('booking.pay', { amount: fee })}
        </button>
      </div>
    </>
  );
}
