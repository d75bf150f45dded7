import type { FeedbackInfo } from '@qless/contract';
import {
  type ErrorCode,
  FEEDBACK_COMMENT_MAX,
  FEEDBACK_LINK_DAYS,
  FEEDBACK_RATINGS,
} from '@qless/contract/core';
import { useEffect, useId, useRef, useState } from 'react';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import type { MessageKey } from '../../../i18n/en';
import { localeChosen, useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { embedded } from '../../../lib/embedded-data';
import { useAsync } from '../../../lib/use-async';
import { useHydrated } from '../../../lib/use-hydrated';
import { feedbackQuery, getFeedback, giveFeedback } from '../api/feedback-api';
import './feedback.css';

/** The ends of the link's life, each said in its own words. */
type Ending = 'thanks' | 'given' | 'expired' | 'invalid';

const ENDINGS: Record<Ending, { title: MessageKey; body: MessageKey }> = {
  thanks: { title: 'feedback.thanks.title', body: 'feedback.thanks.body' },
  given: { title: 'feedback.given.title', body: 'feedback.given.body' },
  expired: { title: 'feedback.expired.title', body: 'feedback.expired.body' },
  invalid: { title: 'feedback.invalid.title', body: 'feedback.invalid.body' },
};

const RATING_WORDS = {
  1: 'feedback.rating.1',
  2: 'feedback.rating.2',
  3: 'feedback.rating.3',
  4: 'feedback.rating.4',
  5: 'feedback.rating.5',
} as const satisfies Record<(typeof FEEDBACK_RATINGS)[number], MessageKey>;

/** The answers that end the page instead of asking again. */
function endingOf(error: unknown): Ending | null {
  if (!(error instanceof ApiError)) return null;
  const code: ErrorCode | null = error.code;
  if (code === 'FEEDBACK_ALREADY_GIVEN') return 'given';
  if (code === 'FEEDBACK_LINK_EXPIRED' || error.status === 410) return 'expired';
  if (code === 'FEEDBACK_LINK_INVALID' || error.status === 404) return 'invalid';
  return null;
}

/**
 * A word after the visit: what the link is about, five large choices from 1 to 5, a comment
 * if they wish, then thanks. The page follows the visit's language unless the reader chose
 * one. Nothing here needs more than the page's own chunk (no library).
 */
export function FeedbackPage({ token, homeHref }: { token: string; homeHref: string }) {
  const { t, locale, setLocale } = useI18n();
  const [attempt, setAttempt] = useState(0);
  const [ending, setEnding] = useState<Ending | null>(null);
  const info = useAsync(
    (signal) => getFeedback(token, signal),
    [token, attempt],
    false,
    embedded(feedbackQuery(token), (body) => body),
  );
  const hydrated = useHydrated();
  const followed = useRef(false);
  const visitLocale = info.status === 'success' ? info.data.locale : null;
  useEffect(() => {
    if (!hydrated || !visitLocale || followed.current) return;
    followed.current = true;
    if (visitLocale !== locale && !localeChosen()) setLocale(visitLocale);
  }, [hydrated, visitLocale, locale, setLocale]);

  // The form is replaced by its answer: focus goes to what it says (the button is gone).
  const endHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (ending) endHeading.current?.focus();
  }, [ending]);

  const shown: Ending | null =
    ending ??
    (info.status === 'success' && info.data.given
      ? 'given'
      : info.status === 'error'
        ? endingOf(info.error)
        : null);
  if (shown) {
    const organization = info.status === 'success' ? info.data.organization_name : '';
    return (
      <div className="container page-section page-section--narrow feedback-page">
        <div
          className={`feedback-end feedback-end--${shown}`}
          data-feedback-end={shown}
          role="status"
        >
          <h1 className="page-title" ref={endHeading} tabIndex={-1}>
            {t(ENDINGS[shown].title)}
          </h1>
          <p>{t(ENDINGS[shown].body, { organization, days: FEEDBACK_LINK_DAYS })}</p>
        </div>
        <p className="feedback-end__next">
          <a className="btn btn--secondary" href={homeHref}>
            {t('notFound.home')}
          </a>
        </p>
      </div>
    );
  }
  if (info.status === 'loading') {
    return (
      <div className="container page-section page-section--narrow">
        <Spinner label={t('common.loading')} />
      </div>
    );
  }
  if (info.status === 'error') {
    return (
      <div className="container page-section page-section--narrow">
        <LoadError
          message={t('feedback.loadFailed')}
          retryLabel={t('common.retry')}
          onRetry={() => setAttempt((n) => n + 1)}
        />
      </div>
    );
  }
  return <FeedbackForm token={token} info={info.data} onEnd={setEnding} />;
}

interface FormState {
  notice: Notice | null;
  field: 'rating' | 'comment' | null;
}
const NONE: FormState = { notice: null, field: null };

function FeedbackForm({
  token,
  info,
  onEnd,
}: {
  token: string;
  info: FeedbackInfo;
  onEnd: (ending: Ending) => void;
}) {
  const { t, locale, intlLocale } = useI18n();
  const id = useId();
  // Uncontrolled, so words typed before the page hydrated (a slow phone) are kept; the
  // counter reads them once it is live.
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const [comment, setComment] = useState('');
  useEffect(() => {
    if (commentRef.current) setComment(commentRef.current.value);
  }, []);
  // A rating chosen since the form said one was missing: that notice is no longer true.
  const [chosen, setChosen] = useState(false);
  const used = [...comment.trim()].length;

  const { state, pending, onSubmit } = useFormAction<FormState>(
    async ({ data }) => {
      const rating = Number(formText(data, 'rating'));
      const text = formText(data, 'comment', true);
      try {
        await giveFeedback(token, { rating, ...(text ? { comment: text } : {}) });
        onEnd('thanks');
        return NONE;
      } catch (error) {
        const ending = endingOf(error);
        if (ending) {
          onEnd(ending);
          return NONE;
        }
        return refusal(error);
      }
    },
    NONE,
    ({ data }) => {
      if (formText(data, 'rating')) return null;
      setChosen(false);
      return { notice: { tone: 'error', text: t('feedback.error.rating') }, field: 'rating' };
    },
  );

  function refusal(error: unknown): FormState {
    if (!(error instanceof ApiError))
      return { notice: { tone: 'error', text: t('error.generic') }, field: null };
    const codes = [error.code, ...error.details.map((d) => d.code)];
    const text =
      error.status === 0
        ? t('error.network')
        : error.status === 429
          ? t('error.RATE_LIMITED')
          : codes.includes('INVALID_COMMENT')
            ? t('feedback.error.comment')
            : codes.includes('INVALID_RATING')
              ? t('feedback.error.rating')
              : t('error.generic');
    const field = codes.includes('INVALID_COMMENT')
      ? 'comment'
      : codes.includes('INVALID_RATING')
        ? 'rating'
        : null;
    return { notice: { tone: 'error', text }, field };
  }

  const shown = state.field === 'rating' && chosen ? NONE : state;
  const service =
    locale === 'fr' && info.service_name_fr ? info.service_name_fr : info.service_name;
  return (
    <div className="container page-section page-section--narrow feedback-page">
      <h1 id={`${id}-title`} className="page-title">
        {t('feedback.question')}
      </h1>
      <p className="page-lead">
        {t('feedback.visit', {
          service,
          organization: info.organization_name,
          date: formatDate(info.visit_date, intlLocale, LONG_DATE),
        })}
      </p>
      <form className="form-card" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
        <fieldset
          className="feedback-rating"
          aria-invalid={shown.field === 'rating' ? true : undefined}
          aria-describedby={`${id}-scale`}
        >
          <legend>{t('feedback.rating')}</legend>
          <div className="feedback-rating__choices">
            {FEEDBACK_RATINGS.map((n) => (
              <label key={n} className="feedback-rating__choice">
                <input
                  className="visually-hidden"
                  type="radio"
                  name="rating"
                  value={n}
                  onChange={() => setChosen(true)}
                />
                <span className="feedback-rating__number" aria-hidden="true">
                  {n}
                </span>
                <span className="visually-hidden">
                  {n} – {t(RATING_WORDS[n])}
                </span>
              </label>
            ))}
          </div>
          <p id={`${id}-scale`} className="feedback-rating__scale">
            <span>1 = {t(RATING_WORDS[1])}</span>
            <span>5 = {t(RATING_WORDS[5])}</span>
          </p>
        </fieldset>
        <div className={state.field === 'comment' ? 'field field--invalid' : 'field'}>
          <label htmlFor={`${id}-comment`}>{t('feedback.comment')}</label>
          <textarea
            id={`${id}-comment`}
            name="comment"
            className="input feedback-comment"
            rows={4}
            maxLength={FEEDBACK_COMMENT_MAX}
            ref={commentRef}
            onChange={(e) => setComment(e.target.value)}
            aria-describedby={`${id}-count`}
            aria-invalid={state.field === 'comment' ? true : undefined}
          />
          <p id={`${id}-count`} className="field__hint feedback-comment__count">
            {t('feedback.commentCount', { count: used, max: FEEDBACK_COMMENT_MAX })}
          </p>
        </div>
        <FormNotice notice={shown.notice} />
        <SubmitButton busy={pending} label={t('feedback.submit')} busyLabel={t('feedback.busy')} />
      </form>
    </div>
  );
}
