import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Field } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { apiErrorKey } from '../../../lib/error-keys';
import { useAsync } from '../../../lib/use-async';
import { acceptInvitation, getInvitation } from '../api/invitations';
import { type PasswordProblem, passwordProblem } from '../lib/passwords';
import { PasswordFields } from './password-fields';
import './account.css';

/** Why an invitation link cannot be used, in words, with the way forward. */
function LinkProblem({ reason, loginHref }: { reason: string | null; loginHref: string }) {
  const { t } = useI18n();
  const key =
    reason === 'TOKEN_EXPIRED'
      ? 'account.invite.expired'
      : reason === 'TOKEN_USED'
        ? 'account.link.used'
        : 'account.link.invalid';
  return (
    <div className="form-card">
      <h1 className="page-title">{t('account.invite.title')}</h1>
      <Alert tone="error">{t(key)}</Alert>
      <p className="form-card__foot">
        <a href={loginHref}>{t('account.toLogin')}</a>
      </p>
    </div>
  );
}

/** /invite/:token — an invited person chooses a password, and is signed in. */
export function InvitePage({
  token,
  loginHref,
  onSignedIn,
}: {
  token: string;
  loginHref: string;
  onSignedIn: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const invitation = useAsync((signal) => getInvitation(token, signal), [token]);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<PasswordProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{
    key: ReturnType<typeof apiErrorKey>;
    code: string | null;
  } | null>(null);

  if (invitation.status === 'loading') {
    return <Spinner label={t('account.invite.loading')} />;
  }
  if (invitation.status === 'error') {
    const code = invitation.error instanceof ApiError ? invitation.error.code : null;
    if (code === 'INVALID_TOKEN') return <LinkProblem reason={code} loginHref={loginHref} />;
    return <Alert tone="error">{t(apiErrorKey(invitation.error))}</Alert>;
  }
  const info = invitation.data;
  if (!info.valid) return <LinkProblem reason={info.reason} loginHref={loginHref} />;
  // Once the link has been spent by this very form, the same words as a used link.
  if (error?.code === 'TOKEN_USED' || error?.code === 'TOKEN_EXPIRED') {
    return <LinkProblem reason={error.code} loginHref={loginHref} />;
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = passwordProblem(password, again);
    setProblem(found);
    setError(null);
    if (found) return;
    setBusy(true);
    try {
      await acceptInvitation({ token, password, ...(name.trim() ? { name: name.trim() } : {}) });
      onSignedIn();
    } catch (err) {
      setError({ key: apiErrorKey(err), code: err instanceof ApiError ? err.code : null });
      setBusy(false);
    }
  };

  return (
    <form className="form-card" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <h1 id={`${id}-title`} className="page-title">
        {t('account.invite.title')}
      </h1>
      <p className="page-lead">{t('account.invite.lead', { org: info.organization_name ?? '' })}</p>
      <Field label={t('account.email')}>
        {(ids) => (
          <input
            {...ids}
            name="email"
            type="email"
            className="input"
            value={info.email ?? ''}
            readOnly
            autoComplete="username"
          />
        )}
      </Field>
      <Field label={t('account.name')}>
        {(ids) => (
          <input
            {...ids}
            name="name"
            className="input"
            maxLength={100}
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </Field>
      <PasswordFields
        password={password}
        again={again}
        onPassword={setPassword}
        onAgain={setAgain}
        problem={problem}
      />
      <div aria-live="polite">{error ? <Alert tone="error">{t(error.key)}</Alert> : null}</div>
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        {busy ? t('account.invite.busy') : t('account.invite.submit')}
      </button>
    </form>
  );
}
