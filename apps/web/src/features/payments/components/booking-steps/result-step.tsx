import type { Ref } from 'react';
import { Icon } from '../../../../components/ui/icon';
import { useI18n } from '../../../../i18n/i18n';
import { failureReasonKey } from '../../lib/error-message';
import { StepHeading } from './step-parts';

interface HeadingProps {
  titleId: string;
  headingRef: Ref<HTMLHeadingElement>;
}

export function PaidStep(props: HeadingProps & { hasTicket: boolean; onViewTicket: () => void }) {
  const { t } = useI18n();
  return (
    <div className="booking__result">
      <StatusIcon ok />
      <StepHeading id={props.titleId} headingRef={props.headingRef}>
        {t('booking.success.title')}
      </StepHeading>
      {props.hasTicket ? (
        <>
          <p>{t('booking.success.body')}</p>
          <div className="modal__actions modal__actions--center">
            <button type="button" className="btn btn--primary" onClick={props.onViewTicket}>
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
}

export function FailedStep(
  props: HeadingProps & { reason: string | null; onTryAgain: () => void },
) {
  const { t } = useI18n();
  const reason = failureReasonKey(props.reason);
  return (
    <div className="booking__result">
      <StatusIcon ok={false} />
      <StepHeading id={props.titleId} headingRef={props.headingRef}>
        {t('booking.failed.title')}
      </StepHeading>
      {reason ? <p className="booking__reason">{t(reason)}</p> : null}
      <p>{t('booking.failed.body')}</p>
      <div className="modal__actions modal__actions--center">
        <button type="button" className="btn btn--primary" onClick={props.onTryAgain}>
          {t('booking.tryAgain')}
        </button>
      </div>
    </div>
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
