import { useRef } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { TurnCard } from './turn-card';

/** The walk-in's page once joined: their number and their turn, live. */
export function VisitPage({ visitId, accessKey }: { visitId: string; accessKey: string | null }) {
  const { t } = useI18n();
  const headingRef = useRef<HTMLHeadingElement>(null);
  return (
    <div className="container page-section page-section--narrow visit-page">
      <h1 ref={headingRef} tabIndex={-1} className="page-title">
        {t('queue.visit.title')}
      </h1>
      {accessKey ? (
        <TurnCard visitId={visitId} accessKey={accessKey} size="page" />
      ) : (
        <p className="turn-card__error" role="alert">
          {t('queue.visit.noKey')}
        </p>
      )}
    </div>
  );
}
