import { useRef } from 'react';
import { NotifyMe } from '../../../components/notify-me';
import { useI18n } from '../../../i18n/i18n';
import { TurnCard } from './turn-card';
import { FeedbackLink, KeepLink, LeaveLine } from './visit-actions';

/**
 * The walk-in's page once joined: their number and their turn, live; "Leave the line" while
 * waiting or called; the link to follow the turn again; the feedback link once done.
 */
export function VisitPage({
  visitId,
  accessKey,
  link,
  feedbackHref,
}: {
  visitId: string;
  accessKey: string | null;
  /** This page's address with its key (`/visit/{id}#k=…`), to keep. */
  link: string | null;
  feedbackHref: (token: string) => string;
}) {
  const { t } = useI18n();
  const headingRef = useRef<HTMLHeadingElement>(null);
  return (
    <div className="container page-section page-section--narrow visit-page">
      <h1 ref={headingRef} tabIndex={-1} className="page-title">
        {t('queue.visit.title')}
      </h1>
      {accessKey ? (
        <>
          <TurnCard
            visitId={visitId}
            accessKey={accessKey}
            size="page"
            footer={(turn, replace) =>
              turn.state === 'waiting' || turn.state === 'called' ? (
                <>
                  <NotifyMe about={{ visit: visitId }} accessKey={accessKey} />
                  <LeaveLine visitId={visitId} accessKey={accessKey} onLeft={replace} />
                </>
              ) : turn.state === 'done' ? (
                <FeedbackLink visitId={visitId} accessKey={accessKey} feedbackHref={feedbackHref} />
              ) : null
            }
          />
          {link ? <KeepLink link={link} /> : null}
        </>
      ) : (
        <p className="turn-card__error" role="alert">
          {t('queue.visit.noKey')}
        </p>
      )}
    </div>
  );
}
