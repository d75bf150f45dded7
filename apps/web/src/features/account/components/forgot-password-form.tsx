import { useId } from 'react';
import { InputField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { apiErrorKey } from '../../../lib/error-keys';
import { requestPasswordReset } from '../api/password-reset';
import './account.css';

/** /forgot-password — the same neutral answer whether or not the e-mail has an account. */
export function ForgotPasswordForm({ loginHref }: { loginHref: string }) {
  const { t } = useI18n();
  const id = useId();
  const { state, pending, onSubmit } = useFormAction<Notice | null>(async ({ element, data }) => {
    try {
      await requestPasswordReset(formText(data, 'email'));
      element.reset();
      return { tone: 'success', text: t('account.forgot.sent') };
    } catch (error) {
      // A refused e-mail format is the one failure that is the visitor's to fix here.
      const key =
        error instanceof ApiError && error.code === 'INVALID_EMAIL'
          ? 'error.INVALID_EMAIL'
          : apiErrorKey(error);
      return { tone: 'error', text: t(key) };
    }
  }, null);

  return (
    <form className="form-card" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="page-title">
        {t('account.forgot.title')}
      </h1>
      <p className="page-lead">{t('account.forgot.lead')}</p>
      <InputField
        label={t('account.email')}
        name="email"
        type="email"
        required
        maxLength={254}
        autoComplete="email"
      />
      <FormNotice notice={state} />
      <SubmitButton
        className="btn btn--primary btn--block"
        busy={pending}
        label={t('account.forgot.submit')}
        busyLabel={t('account.forgot.busy')}
      />
      <p className="form-card__foot">
        <a href={loginHref}>{t('account.backToLogin')}</a>
      </p>
    </form>
  );
}
