import { useId } from 'react';
import { InputField } from '../../../components/form/field';
import { FormNotice, SubmitButton } from '../../../components/form/form-status';
import { formText } from '../../../components/form/use-form-action';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { apiErrorKey } from '../../../lib/error-keys';
import { useAsync } from '../../../lib/use-async';
import { acceptInvitation, getInvitation } from '../api/invitations';
import { PasswordFields, useNewPasswordForm } from './password-fields';
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
  const { state, busy, onSubmit } = useNewPasswordForm(
    async (password, data) => {
      const name = formText(data, 'name', true);
      await acceptInvitation({ token, password, ...(name ? { name } : {}) });
      onSignedIn();
    },
    (err) => ({ key: apiErrorKey(err), code: err instanceof ApiError ? err.code : null }),
  );
  const { error } = state;

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

  return (
    <form className="form-card" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h1 id={`${id}-title`} className="page-title">
        {t('account.invite.title')}
      </h1>
      <p className="page-lead">{t('account.invite.lead', { org: info.organization_name ?? '' })}</p>
      <InputField
        label={t('account.email')}
        name="email"
        type="email"
        value={info.email ?? ''}
        readOnly
        autoComplete="username"
      />
      <InputField label={t('account.name')} name="name" maxLength={100} autoComplete="name" />
      <PasswordFields problem={state.problem} />
      <FormNotice notice={error ? { tone: 'error', text: t(error.key) } : null} />
      <SubmitButton
        className="btn btn--primary btn--block"
        busy={busy}
        label={t('account.invite.submit')}
        busyLabel={t('account.invite.busy')}
      />
    </form>
  );
}
