import {
  PERSONAL_DATA_KINDS,
  type PersonalDataEraseResponse,
  type PersonalDataExport,
} from '@qless/contract';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { apiErrorKey } from '../../../lib/error-keys';
import {
  erasePersonalData,
  exportPersonalData,
  type PersonalDataSubject,
} from '../api/personal-data';
import './personal-data.css';

type Kind = 'phone' | 'email';
type ExportList = Exclude<keyof PersonalDataExport, 'subject' | 'generated_at' | 'retention_days'>;
const LISTS: readonly ExportList[] = [
  'bookings',
  'payments',
  'payment_events',
  'visits',
  'feedback',
  'waitlist_entries',
  'messages',
  'contact_requests',
  'push_subscriptions',
];
const KIND_KEYS: Record<ExportList | (typeof PERSONAL_DATA_KINDS)[number], MessageKey> = {
  bookings: 'platform.personalData.kind.bookings',
  payments: 'platform.personalData.kind.payments',
  payment_events: 'platform.personalData.kind.payment_events',
  visits: 'platform.personalData.kind.visits',
  feedback: 'platform.personalData.kind.feedback',
  feedback_comments: 'platform.personalData.kind.feedback',
  waitlist_entries: 'platform.personalData.kind.waitlist_entries',
  messages: 'platform.personalData.kind.messages',
  contact_requests: 'platform.personalData.kind.contact_requests',
  push_subscriptions: 'platform.personalData.kind.push_subscriptions',
};

function errorKey(error: unknown): MessageKey {
  if (error instanceof ApiError && error.code === 'ERASURE_PAYMENT_PENDING') {
    return 'platform.personalData.paymentPending';
  }
  return apiErrorKey(error);
}

/** Saves the export the screen already holds as a JSON file. */
function download(data: PersonalDataExport) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `qless-personal-data-${data.generated_at.slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Personal data (decision 031): find what is held about one phone number or e-mail address,
 * download it, or erase it all after a confirmation step.
 */
export function PersonalDataPanel() {
  const { t } = useI18n();
  const id = useId();
  const [kind, setKind] = useState<Kind>('phone');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<{ subject: PersonalDataSubject; data: PersonalDataExport }>();
  const [confirming, setConfirming] = useState(false);
  const [understood, setUnderstood] = useState(false);
  const [erased, setErased] = useState<PersonalDataEraseResponse>();
  const [error, setError] = useState<MessageKey | null>(null);

  const search = async (event: FormEvent) => {
    event.preventDefault();
    const typed = value.trim();
    if (!typed) return;
    const subject: PersonalDataSubject = kind === 'phone' ? { phone: typed } : { email: typed };
    setBusy(true);
    setError(null);
    setErased(undefined);
    setConfirming(false);
    try {
      setFound({ subject, data: await exportPersonalData(subject) });
    } catch (err) {
      setFound(undefined);
      setError(errorKey(err));
    } finally {
      setBusy(false);
    }
  };

  const erase = async () => {
    if (!found) return;
    setBusy(true);
    setError(null);
    try {
      setErased(await erasePersonalData(found.subject));
      setFound(undefined);
      setConfirming(false);
      setUnderstood(false);
    } catch (err) {
      setError(errorKey(err));
    } finally {
      setBusy(false);
    }
  };

  const total = found ? LISTS.reduce((n, list) => n + found.data[list].length, 0) : 0;
  return (
    <div className="console-panel personal-data">
      <p className="page-lead">{t('platform.personalData.lead')}</p>
      <form className="personal-data__search" onSubmit={search}>
        <fieldset className="personal-data__kinds">
          <legend>{t('platform.personalData.by')}</legend>
          {(['phone', 'email'] as const).map((k) => (
            <label key={k}>
              <input
                type="radio"
                name={`${id}-kind`}
                checked={kind === k}
                onChange={() => setKind(k)}
              />{' '}
              {t(k === 'phone' ? 'platform.personalData.phone' : 'platform.personalData.email')}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${id}-value`}>
          {t(kind === 'phone' ? 'platform.personalData.phone' : 'platform.personalData.email')}
        </label>
        <input
          id={`${id}-value`}
          className="input"
          name="subject"
          type={kind === 'phone' ? 'tel' : 'email'}
          autoComplete="off"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          required
        />
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {t('platform.personalData.search')}
        </button>
      </form>
      {error ? <Alert tone="error">{t(error)}</Alert> : null}
      {erased ? (
        <Alert tone="success">
          <span data-personal-data-erased>{t('platform.personalData.erased')}</span>
          <ul>
            {PERSONAL_DATA_KINDS.map((k) => (
              <li key={k}>
                {t('platform.personalData.count', { kind: t(KIND_KEYS[k]), n: erased.erased[k] })}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {found ? (
        <section className="console-card" aria-live="polite" data-personal-data-total={total}>
          <p>
            {total === 0
              ? t('platform.personalData.nothing')
              : t('platform.personalData.found', { n: total })}
          </p>
          <dl className="console-rows">
            {LISTS.map((list) => (
              <div key={list} className="personal-data__row">
                <dt>{t(KIND_KEYS[list])}</dt>
                <dd>{found.data[list].length}</dd>
              </div>
            ))}
          </dl>
          <div className="personal-data__actions">
            <button
              type="button"
              className="btn btn--secondary"
              onClick={() => download(found.data)}
            >
              {t('platform.personalData.download')}
            </button>
            {total > 0 && !confirming ? (
              <button type="button" className="btn btn--danger" onClick={() => setConfirming(true)}>
                {t('platform.personalData.erase')}
              </button>
            ) : null}
          </div>
          {confirming ? (
            <div className="personal-data__confirm" role="alertdialog" aria-labelledby={`${id}-c`}>
              <p id={`${id}-c`}>{t('platform.personalData.confirm')}</p>
              <label>
                <input
                  type="checkbox"
                  checked={understood}
                  onChange={(e) => setUnderstood(e.target.checked)}
                />{' '}
                {t('platform.personalData.understood')}
              </label>
              <div className="personal-data__actions">
                <button
                  type="button"
                  className="btn btn--danger"
                  disabled={!understood || busy}
                  onClick={erase}
                >
                  {t('platform.personalData.eraseNow')}
                </button>
                <button
                  type="button"
                  className="btn btn--secondary"
                  onClick={() => {
                    setConfirming(false);
                    setUnderstood(false);
                  }}
                >
                  {t('platform.approve.cancel')}
                </button>
              </div>
            </div>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
