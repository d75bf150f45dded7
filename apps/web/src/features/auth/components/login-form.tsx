import { type FormEvent, useEffect, useId, useState } from 'react';
import { Field } from '../../../components/ui/field';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { errorCodeKey } from '../../../lib/error-keys';
import { login } from '../api/login';

const TOAST_MS = 4000;

export function LoginForm({
  onContact,
  onSuccess,
  forgotHref,
}: {
  onContact: () => void;
  onSuccess: () => void;
  forgotHref?: string;
}) {
  const { t } = useI18n();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState<string | null>(null);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setBusy(true);
    try {
      await login(String(data.get('email') ?? ''), String(data.get('password') ?? ''));
      form.reset();
      onSuccess();
    } catch (error) {
      // Until the sign-in route exists (404), every failure is the generic toast.
      const answered = error instanceof ApiError && error.code && error.status !== 404;
      const key = answered ? errorCodeKey(error.code) : null;
      setToast(key ? t(key) : (answered && error.message) || t('login.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <form className="form-card" onSubmit={submit} aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`} className="page-title">
          {t('login.title')}
        </h1>
        <Field label={t('login.email')}>
          {(ids) => (
            <input
              {...ids}
              name="email"
              type="email"
              className="input"
              required
              autoComplete="username"
            />
          )}
        </Field>
        <Field label={t('login.password')}>
          {(ids) => (
            <input
              {...ids}
              name="password"
              type="password"
              className="input"
              required
              autoComplete="current-password"
            />
          )}
        </Field>
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          {busy ? t('login.busy') : t('login.submit')}
        </button>
        {forgotHref ? (
          <p className="form-card__foot">
            <a href={forgotHref}>{t('login.forgot')}</a>
          </p>
        ) : null}
        <div className="form-card__foot form-card__foot--stack">
          <p>{t('login.noAccount')}</p>
          <button type="button" className="btn btn--secondary btn--block" onClick={onContact}>
            {t('login.contact')}
          </button>
        </div>
      </form>
      <div className="toast-region" aria-live="assertive">
        {toast ? (
          <div className="toast" role="alert">
            <span>{toast}</span>
            <button
              type="button"
              className="toast__close"
              aria-label={t('login.dismiss')}
              onClick={() => setToast(null)}
            >
              ×
            </button>
          </div>
        ) : null}
      </div>
    </>
  );
}
