import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { apiErrorKey } from '../../../lib/error-keys';
import { confirmPasswordReset } from '../api/password-reset';
import { type PasswordProblem, passwordProblem } from '../lib/passwords';
import { PasswordFields } from './password-fields';
import './account.css';

/** /reset-password/:token — a new password, then back to Login. */
export function ResetPasswordForm({
  token,
  forgotHref,
  onDone,
}: {
  token: string;
  forgotHref: string;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<PasswordProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; linkDead: boolean } | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = passwordProblem(password, again);
    setProblem(found);
    setError(null);
    if (found) return;
    setBusy(true);
    try {
      await confirmPasswordReset(token, password);
      onDone();
    } catch (err) {
      const code = err instanceof ApiError ? err.code : null;
      const text =
        code === 'TOKEN_EXPIRED'
          ? t('account.reset.expired')
          : code === 'TOKEN_USED'
            ? t('account.link.used')
            : t(apiErrorKey(err));
      setError({
        text,
        linkDead: code === 'TOKEN_EXPIRED' || code === 'TOKEN_USED' || code === 'INVALID_TOKEN',
      });
      setBusy(false);
    }
  };

  return (
    <form className="form-card" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <h1 id={`${id}-title`} className="page-title">
        {t('account.reset.title')}
      </h1>
      <p className="page-lead">{t('account.reset.lead')}</p>
      <PasswordFields
        password={password}
        again={again}
        onPassword={setPassword}
        onAgain={setAgain}
        problem={problem}
      />
      <div aria-live="polite">
        {error ? (
          <Alert tone="error">
            {error.text}{' '}
            {error.linkDead ? <a href={forgotHref}>{t('account.reset.again')}</a> : null}
          </Alert>
        ) : null}
      </div>
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        {busy ? t('account.reset.busy') : t('account.reset.submit')}
      </button>
    </form>
  );
}
