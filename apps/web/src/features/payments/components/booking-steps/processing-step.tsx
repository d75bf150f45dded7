import { type Ref, useState } from 'react';
import { Alert } from '../../../../components/ui/alert';
import { Spinner } from '../../../../components/ui/spinner';
import type { MessageKey } from '../../../../i18n/en';
import { useI18n } from '../../../../i18n/i18n';
import type { CancelMode, PaymentRef } from '../../lib/booking-wizard';
import {
  formatCountdown,
  remainingMs,
  type SpokenRemaining,
  spokenSince,
  useNowMs,
  ussdHref,
} from '../../lib/countdown';
import { StepHeading, WithSlot } from './step-parts';

interface Props {
  titleId: string;
  headingRef: Ref<HTMLHeadingElement>;
  payment: PaymentRef;
  cancelling: CancelMode | null;
  cancelError: MessageKey | null;
  onRelease: (mode: CancelMode) => void;
}

export function ProcessingStep({ payment, cancelling, ...props }: Props) {
  const { t } = useI18n();
  const now = useNowMs(1000);
  const left = remainingMs(payment.holdExpiresAt, now);
  // The time left when this step showed: what the screen reader is first told.
  const [firstLeft] = useState(left);
  const over = left <= 0;
  const busy = cancelling !== null;

  const spoken = (s: SpokenRemaining) => {
    switch (s.kind) {
      case 'minutes':
        return t('booking.processing.spokenMinutes', { minutes: s.minutes });
      case 'lastMinute':
        return t('booking.processing.spokenLastMinute');
      case 'over':
        return t('booking.processing.expired');
    }
  };

  return (
    <>
      <StepHeading id={props.titleId} headingRef={props.headingRef}>
        {t('booking.processing.title')}
      </StepHeading>
      {over ? (
        // The hold lapsed: the server expires the payment; the live region below says so.
        <p className="alert alert--warning">{t('booking.processing.expired')}</p>
      ) : (
        <>
          <Spinner label={t('booking.processing.body')} />
          <p className="countdown">
            <span>{t('booking.processing.timeLeft')}</span>{' '}
            <strong className="countdown__clock">{formatCountdown(left)}</strong>
          </p>
          {payment.ussd ? (
            <p className="booking__hint">
              <WithSlot text={t('booking.processing.ussd')} slot="code">
                <a className="ussd" href={ussdHref(payment.ussd)}>
                  {payment.ussd}
                </a>
              </WithSlot>
            </p>
          ) : null}
        </>
      )}
      {/* Spoken every few minutes, not every second (see spokenSince). */}
      <p className="visually-hidden" aria-live="polite" data-spoken-remaining>
        {spoken(spokenSince(left, firstLeft))}
      </p>
      {props.cancelError ? <Alert tone="error">{t(props.cancelError)}</Alert> : null}
      <div className="modal__actions modal__actions--stack">
        {over ? (
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy}
            onClick={() => props.onRelease('retry')}
          >
            {cancelling === 'retry' ? t('booking.processing.releasing') : t('booking.tryAgain')}
          </button>
        ) : (
          <>
            <button
              type="button"
              className="btn btn--secondary"
              disabled={busy}
              onClick={() => props.onRelease('another')}
            >
              {cancelling === 'another'
                ? t('booking.processing.releasing')
                : t('booking.processing.another')}
            </button>
            <button
              type="button"
              className="btn btn--secondary"
              disabled={busy}
              onClick={() => props.onRelease('cancel')}
            >
              {cancelling === 'cancel'
                ? t('booking.processing.releasing')
                : t('booking.processing.cancel')}
            </button>
          </>
        )}
      </div>
    </>
  );
}
