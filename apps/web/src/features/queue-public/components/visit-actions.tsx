import type { VisitTurn } from '@qless/contract';
import { useEffect, useState } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { ApiError, isAbort } from '../../../lib/api-client';
import { getFeedbackToken, leaveLine } from '../api/queue-public';

/**
 * "Leave the line": two taps (the second says what it gives up), done on
 * the server with the visit's key; the card shows the answer at once.
 */
export function LeaveLine({
  visitId,
  accessKey,
  onLeft,
}: {
  visitId: string;
  accessKey: string;
  onLeft: (turn: VisitTurn) => void;
}) {
  const { t } = useI18n();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const leave = async () => {
    setBusy(true);
    setError(null);
    try {
      onLeft(await leaveLine(visitId, accessKey));
    } catch (e) {
      setError(
        e instanceof ApiError && e.status === 0
          ? t('error.network')
          : e instanceof ApiError && e.code === 'VISIT_NOT_ACTIONABLE'
            ? t('queue.visit.leaveRefused')
            : t('error.generic'),
      );
      setBusy(false);
    }
  };
  if (!asking) {
    return (
      <div className="turn-card__actions">
        <button type="button" className="btn btn--secondary" onClick={() => setAsking(true)}>
          {t('queue.visit.leave')}
        </button>
      </div>
    );
  }
  return (
    <div className="turn-card__actions">
      <p>{t('queue.visit.leaveConfirm')}</p>
      {/* The safe choice first, where the first tap was. */}
      <button
        type="button"
        className="btn btn--primary"
        disabled={busy}
        onClick={() => setAsking(false)}
      >
        {t('queue.visit.stay')}
      </button>
      <button type="button" className="btn btn--danger" disabled={busy} onClick={leave}>
        {t('queue.visit.leaveYes')}
      </button>
      {error ? (
        <p className="turn-card__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The visit-over page's link to the feedback page, when there is one. */
export function FeedbackLink({
  visitId,
  accessKey,
  feedbackHref,
}: {
  visitId: string;
  accessKey: string;
  feedbackHref: (token: string) => string;
}) {
  const { t } = useI18n();
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    getFeedbackToken(visitId, accessKey, controller.signal).then(
      (found) => {
        if (!controller.signal.aborted) setToken(found);
      },
      (error: unknown) => {
        // No link then: the SMS carries it too.
        if (!isAbort(error)) setToken(null);
      },
    );
    return () => controller.abort();
  }, [visitId, accessKey]);
  if (!token) return null;
  return (
    <div className="turn-card__actions">
      <a className="btn btn--primary" href={feedbackHref(token)}>
        {t('queue.visit.feedback')}
      </a>
    </div>
  );
}

/** The link to follow this turn again, to keep (a walk-in gets one too). */
export function KeepLink({ link }: { link: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    navigator.clipboard?.writeText(link).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="visit-page__link">
      <p className="hint">{t('queue.visit.keepLink')}</p>
      <p className="visit-page__url" data-testid="visit-link">
        <a href={link}>{link}</a>
      </p>
      <button type="button" className="btn btn--secondary" onClick={copy}>
        {copied ? t('queue.visit.copied') : t('queue.visit.copy')}
      </button>
    </div>
  );
}
