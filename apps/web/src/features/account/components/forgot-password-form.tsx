import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Field } from '../../../components/ui/field';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { apiErrorKey } from '../../../lib/error-keys';
import { requestPasswordReset } from '../api/password-reset';
import './account.css';

/** /forgot-password — the same neutral answer whether or not the e-mail has an account. */
export function ForgotPasswordForm({ loginHref }: { loginHref: string }) {
  const { t } = useI18n();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const email = String(new FormData(form).get('email') ?? '');
    setBusy(true);
    setResult(null);
    try {
      await requestPasswordReset(email);
      form.reset();
      setResult({ tone: 'success', text: t('account.forgot.sent') });
    } catch (error) {
      // A refused e-mail format is the one failure that is the visitor's to fix here.
      const key =
        error instanceof ApiError && error.code === 'INVALID_EMAIL'
          ? 'error.INVALID_EMAIL'
          : apiErrorKey(error);
      setResult({ tone: 'error', text: t(key) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form-card" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="page-title">
        {t('account.forgot.title')}
      </h1>
      <p className="page-lead">{t('account.forgot.lead')}</p>
      <Field label={t('account.email')}>
        {(ids) => (
          <input
            {...ids}
            name="email"
            type="email"
            className="input"
            required
            maxLength={254}
            autoComplete="email"
          />
        )}
      </Field>
      <div aria-live="polite">
        {result ? <Alert tone={result.tone}>{result.text}</Alert> : null}
      </div>
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        {busy ? t('account.forgot.busy') : t('account.forgot.submit')}
      </button>
      <p className="form-card__foot">
        <a href={loginHref}>{t('account.backToLogin')}</a>
      </p>
    </form>
  );
}
