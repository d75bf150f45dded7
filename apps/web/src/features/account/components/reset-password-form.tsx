import { useId } from 'react';
import { FormNotice, SubmitButton } from '../../../components/form/form-status';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { apiErrorKey } from '../../../lib/error-keys';
import { confirmPasswordReset } from '../api/password-reset';
import { PasswordFields, useNewPasswordForm } from './password-fields';
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
  const { state, busy, onSubmit } = useNewPasswordForm(
    async (password) => {
      await confirmPasswordReset(token, password);
      onDone();
    },
    (err) => {
      const code = err instanceof ApiError ? err.code : null;
      const text =
        code === 'TOKEN_EXPIRED'
          ? t('account.reset.expired')
          : code === 'TOKEN_USED'
            ? t('account.link.used')
            : t(apiErrorKey(err));
      return {
        text,
        linkDead: code === 'TOKEN_EXPIRED' || code === 'TOKEN_USED' || code === 'INVALID_TOKEN',
      };
    },
  );
  const { error } = state;

  return (
    <form className="form-card" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h1 id={`${id}-title`} className="page-title">
        {t('account.reset.title')}
      </h1>
      <p className="page-lead">{t('account.reset.lead')}</p>
      <PasswordFields problem={state.problem} />
      <FormNotice
        notice={
          error
            ? {
                tone: 'error',
                text: (
                  <>
                    {error.text}{' '}
                    {error.linkDead ? <a href={forgotHref}>{t('account.reset.again')}</a> : null}
                  </>
                ),
              }
            : null
        }
      />
      <SubmitButton
        className="btn btn--primary btn--block"
        busy={busy}
        label={t('account.reset.submit')}
        busyLabel={t('account.reset.busy')}
      />
    </form>
  );
}
