import type { User } from '@qless/contract';
import { useEffect, useId, useState } from 'react';
import { InputField } from '../../../components/form/field';
import { SubmitButton } from '../../../components/form/form-status';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import { useI18n } from '../../../i18n/i18n';
import { login } from '../api/login';
import { loginErrorMessage } from '../lib/login-error';

/** Spec 9: the login toast closes by itself after 4000 ms. */
export const TOAST_MS = 4000;

/** A failed sign-in's words; a new object each time, so each one can be dismissed. */
type Failure = { toast: string } | null;

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
  const { state, pending, onSubmit } = useFormAction<Failure>(async ({ element, data }) => {
    try {
      const user = await login({
        email: formText(data, 'email'),
        password: formText(data, 'password'),
      });
      element.reset();
      onSuccess(user);
      return null;
    } catch (error) {
      const message = loginErrorMessage(error);
      return { toast: t(message.key, message.params) };
    }
  }, null);
  /** The failure closed by hand or by its timer. */
  const [dismissed, setDismissed] = useState<Failure>(null);
  const toast = state !== dismissed ? (state?.toast ?? null) : null;

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setDismissed(state), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast, state]);

  return (
    <>
      <form className="form-card" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`} className="page-title">
          {t('login.title')}
        </h1>
        <InputField
          label={t('login.email')}
          name="email"
          type="email"
          required
          autoComplete="username"
        />
        <InputField
          label={t('login.password')}
          name="password"
          type="password"
          required
          autoComplete="current-password"
        />
        <SubmitButton
          className="btn btn--primary btn--block"
          busy={pending}
          label={t('login.submit')}
          busyLabel={t('login.busy')}
        />
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
              onClick={() => setDismissed(state)}
            >
              ×
            </button>
          </div>
        ) : null}
      </div>
    </>
  );
}
