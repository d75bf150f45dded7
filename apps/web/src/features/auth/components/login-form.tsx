import type { User } from '@qless/contract';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Field } from '../../../components/form/field';
import { useI18n } from '../../../i18n/i18n';
import { login } from '../api/login';
import { loginErrorMessage } from '../lib/login-error';

/** Spec 9: the login toast closes by itself after 4000 ms. */
export const TOAST_MS = 4000;

export function LoginForm({
  onContact,
  onSuccess,
  forgotHref,
}: {
  onContact: () => void;
  /** Where to go depends on who signed in (an operator has no organization area). */
  onSuccess: (user: User) => void;
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
    setToast(null);
    try {
      const user = await login({
        email: String(data.get('email') ?? ''),
        password: String(data.get('password') ?? ''),
      });
      form.reset();
      setBusy(false);
      onSuccess(user);
    } catch (error) {
      const message = loginErrorMessage(error);
      setToast(t(message.key, message.params));
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
