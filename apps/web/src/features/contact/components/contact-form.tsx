import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Field } from '../../../components/ui/field';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { errorCodeKey } from '../../../lib/error-keys';
import { sendContact } from '../api/send-contact';

type Result = { tone: 'success' | 'error'; text: string } | null;

export function ContactForm({ loginHref }: { loginHref: string }) {
  const { t } = useI18n();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result>(null);

  /** Spec 8: "Failed to send:" plus the error, translated from its code when we know it. */
  const failureReason = (error: unknown): string => {
    if (!(error instanceof ApiError)) return t('error.generic');
    if (error.status === 0) return t('error.network');
    const key = errorCodeKey(error.code) ?? (error.status === 429 ? 'error.RATE_LIMITED' : null);
    return key ? t(key) : error.message;
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setBusy(true);
    setResult(null);
    try {
      await sendContact({
        user_name: String(data.get('user_name') ?? ''),
        user_email: String(data.get('user_email') ?? ''),
        message: String(data.get('message') ?? ''),
        contact_name: String(data.get('contact_name') ?? ''),
        phone: String(data.get('phone') ?? ''),
      });
      form.reset();
      setResult({ tone: 'success', text: t('contact.success') });
    } catch (error) {
      setResult({ tone: 'error', text: t('contact.failure', { error: failureReason(error) }) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form-card" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="page-title">
        {t('contact.title')}
      </h1>
      <p className="page-lead">{t('contact.intro')}</p>
      <Field label={t('contact.name')}>
        {(ids) => (
          <input
            {...ids}
            name="user_name"
            className="input"
            required
            maxLength={200}
            autoComplete="organization"
          />
        )}
      </Field>
      <Field label={t('contact.email')}>
        {(ids) => (
          <input
            {...ids}
            name="user_email"
            type="email"
            className="input"
            required
            maxLength={254}
            autoComplete="email"
          />
        )}
      </Field>
      <Field label={t('contact.contactName')}>
        {(ids) => (
          <input
            {...ids}
            name="contact_name"
            className="input"
            required
            maxLength={100}
            autoComplete="name"
          />
        )}
      </Field>
      <Field label={t('contact.phone')} hint={t('contact.phoneHint')}>
        {(ids) => (
          <input
            {...ids}
            name="phone"
            type="tel"
            inputMode="tel"
            className="input"
            required
            maxLength={30}
            autoComplete="tel"
          />
        )}
      </Field>
      <Field label={t('contact.message')}>
        {(ids) => <textarea {...ids} name="message" className="input" rows={5} maxLength={5000} />}
      </Field>
      <div aria-live="polite">
        {result ? <Alert tone={result.tone}>{result.text}</Alert> : null}
      </div>
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        {busy ? t('contact.sending') : t('contact.submit')}
      </button>
      <p className="form-card__foot">
        {t('contact.haveAccount')} <a href={loginHref}>{t('contact.login')}</a>
      </p>
    </form>
  );
}
