import type { JoinInfoResponse, JoinResponse } from '@qless/contract';
import { useId, useState } from 'react';
import { InputField, SelectField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import type { MessageKey } from '../../../i18n/en';
import { type Locale, useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { embedded } from '../../../lib/embedded-data';
import { useAsync } from '../../../lib/use-async';
import { getJoinInfo, joinInfoQuery, joinQueue } from '../api/queue-public';
import { joinRefusalKey } from '../lib/join-refusal';
import { estimateText } from '../lib/turn-text';
import { rememberVisit } from '../lib/visit-keys';
import './queue.css';

interface JoinState {
  notice: Notice | null;
  field: 'phone' | 'name' | 'service' | 'code' | null;
}
const NONE: JoinState = { notice: null, field: null };

export function useJoinInfo(orgId: string, attempt: number) {
  return useAsync(
    (signal) => getJoinInfo(orgId, signal),
    [orgId, attempt],
    false,
    embedded(joinInfoQuery(orgId), (body) => body),
  );
}

/**
 * The poster's page: the organization's services with how many wait and for how long, and
 * the form to join one. On success the visitor goes to their own turn's page.
 */
export function JoinPage({
  orgId,
  onJoined,
  notFound,
}: {
  orgId: string;
  onJoined: (joined: JoinResponse) => void;
  /** The page for an organization the API does not know. */
  notFound: React.ReactNode;
}) {
  const { t } = useI18n();
  const [attempt, setAttempt] = useState(0);
  const info = useJoinInfo(orgId, attempt);
  if (info.status === 'loading') {
    return (
      <div className="container page-section page-section--narrow">
        <Spinner label={t('common.loading')} />
      </div>
    );
  }
  if (info.status === 'error') {
    if (info.error instanceof ApiError && [400, 404].includes(info.error.status)) return notFound;
    return (
      <div className="container page-section page-section--narrow">
        <LoadError
          message={t('queue.join.loadFailed')}
          retryLabel={t('common.retry')}
          onRetry={() => setAttempt((n) => n + 1)}
        />
      </div>
    );
  }
  return <JoinForm orgId={orgId} info={info.data} onJoined={onJoined} />;
}

/** The join form (exported for its tests); with the hall's code when the organization asks. */
export function JoinForm({
  orgId,
  info,
  onJoined,
}: {
  orgId: string;
  info: JoinInfoResponse;
  onJoined: (joined: JoinResponse) => void;
}) {
  const { t, locale } = useI18n();
  const id = useId();
  const closedKey: MessageKey | null = !info.enabled
    ? 'queue.join.error.JOIN_DISABLED'
    : !info.open
      ? 'queue.join.error.QUEUE_CLOSED'
      : info.services.length === 0
        ? 'queue.join.noServices'
        : null;

  const { state, pending, onSubmit } = useFormAction<JoinState>(
    async ({ data }) => {
      try {
        const phone = formText(data, 'phone', true);
        const lang = formText(data, 'locale');
        const code = info.code_required ? formText(data, 'code', true) : '';
        const joined = await joinQueue(orgId, {
          service_id: formText(data, 'service_id'),
          name: formText(data, 'name', true),
          ...(phone ? { phone } : {}),
          // The opt-in goes with the number it is for (decision 144).
          ...(phone && info.whatsapp && data.get('whatsapp') === 'on' ? { whatsapp: true } : {}),
          ...(lang === 'en' || lang === 'fr' ? { locale: lang } : {}),
          ...(info.code_required ? { code } : {}),
        });
        rememberVisit(joined.turn.visit_id, joined.key);
        onJoined(joined);
        return NONE;
      } catch (error) {
        return { notice: { tone: 'error', text: refusalText(error) }, field: fieldOf(error) };
      }
    },
    NONE,
    ({ data }) =>
      formText(data, 'service_id')
        ? null
        : { notice: { tone: 'error', text: t('queue.join.error.service') }, field: 'service' },
  );

  function refusalText(error: unknown): string {
    return t(joinRefusalKey(error));
  }
  function fieldOf(error: unknown): JoinState['field'] {
    if (!(error instanceof ApiError)) return null;
    const codes = [error.code, ...error.details.map((d) => d.code)];
    if (codes.includes('INVALID_PHONE')) return 'phone';
    if (codes.includes('INVALID_NAME')) return 'name';
    if (codes.includes('JOIN_CODE_INVALID')) return 'code';
    return null;
  }

  const serviceName = (s: JoinInfoResponse['services'][number]) =>
    locale === 'fr' && s.name_fr ? s.name_fr : s.name;
  const waitLine = (s: JoinInfoResponse['services'][number]) => {
    const count =
      s.waiting === 0
        ? t('queue.join.nobody')
        : s.waiting === 1
          ? t('queue.join.waitingOne')
          : t('queue.join.waiting', { count: s.waiting });
    // No counter of the service open: no estimate, nobody can call anyone yet.
    if (s.counters_open === false) return `${count} · ${t('queue.turn.notOpen')}`;
    return s.estimate && s.waiting > 0 ? `${count} · ${estimateText(t, s.estimate)}` : count;
  };

  return (
    <div className="container page-section page-section--narrow join-page">
      <h1 id={`${id}-title`} className="page-title">
        {t('queue.join.title')}
      </h1>
      <p className="page-lead join-page__org">{info.organization.name}</p>
      {closedKey ? (
        <>
          <p className="alert alert--warning" role="status" data-join-closed>
            {t(closedKey)}
          </p>
          <ul className="join-page__lines">
            {info.services.map((s) => (
              <li key={s.service_id}>
                <strong>{serviceName(s)}</strong> — {waitLine(s)}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <form className="form-card" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
          <p className="page-lead">{t('queue.join.lead')}</p>
          <fieldset
            className="join-services"
            aria-invalid={state.field === 'service' ? true : undefined}
          >
            <legend>{t('queue.join.service')}</legend>
            {info.services.map((s, i) => (
              <label key={s.service_id} className="join-service">
                <input
                  type="radio"
                  name="service_id"
                  value={s.service_id}
                  defaultChecked={info.services.length === 1 && i === 0}
                  required
                />
                <span>
                  <span className="join-service__name">{serviceName(s)}</span>
                  <span className="join-service__wait">{waitLine(s)}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <InputField
            label={t('queue.join.name')}
            name="name"
            required
            maxLength={80}
            autoComplete="name"
            error={state.field === 'name' ? t('queue.join.error.INVALID_NAME') : undefined}
          />
          <InputField
            label={t('queue.join.phone')}
            name="phone"
            type="tel"
            inputMode="tel"
            maxLength={30}
            autoComplete="tel"
            hint={t('queue.join.phoneHint')}
            error={state.field === 'phone' ? t('queue.join.error.INVALID_PHONE') : undefined}
          />
          {info.whatsapp ? (
            <label className="join-whatsapp">
              <input type="checkbox" name="whatsapp" /> {t('queue.join.whatsapp')}
            </label>
          ) : null}
          <SelectField label={t('queue.join.language')} name="locale" defaultValue={locale}>
            {(['fr', 'en'] satisfies Locale[]).map((l) => (
              <option key={l} value={l}>
                {l === 'fr' ? 'Français' : 'English'}
              </option>
            ))}
          </SelectField>
          {info.code_required ? (
            // Proof of presence (decision 125): the 4 digits the board in the hall shows.
            <InputField
              label={t('queue.join.code')}
              name="code"
              required
              inputMode="numeric"
              pattern="[0-9]{4}"
              minLength={4}
              maxLength={4}
              autoComplete="off"
              className="input join-code"
              hint={t('queue.join.codeHint')}
              error={state.field === 'code' ? t('queue.join.error.JOIN_CODE_INVALID') : undefined}
            />
          ) : null}
          <FormNotice notice={state.notice} />
          <SubmitButton
            busy={pending}
            label={t('queue.join.submit')}
            busyLabel={t('queue.join.busy')}
          />
        </form>
      )}
    </div>
  );
}
