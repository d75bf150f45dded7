import type { Ref } from 'react';
import { Spinner } from '../../../../components/ui/spinner';
import { useI18n } from '../../../../i18n/i18n';
import { StepHeading } from './step-parts';

export function ProcessingStep(props: {
  titleId: string;
  headingRef: Ref<HTMLHeadingElement>;
  ussd: string | null;
}) {
  const { t } = useI18n();
  return (
    <>
      <StepHeading id={props.titleId} headingRef={props.headingRef}>
        {t('booking.processing.title')}
      </StepHeading>
      <Spinner label={t('booking.processing.body')} />
      {props.ussd ? (
        <p className="booking__hint">{t('booking.processing.ussd', { code: props.ussd })}</p>
      ) : null}
    </>
  );
}
