import { useId } from 'react';
import { InputField, TextAreaField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { errorCodeKey } from '../../../lib/error-keys';
import { sendContact } from '../api/send-contact';

export function ContactForm({ loginHref }: { loginHref: string }) {
  const { t } = useI18n();
  const id = useId();

  /** Spec 8: "Failed to send:" plus the error, translated from its code when we know it. */
  const failureReason = (error: unknown): string => {
    if (!(error instanceof ApiError)) return t('error.generic');
    if (error.status === 0) return t('error.network');
    const key = errorCodeKey(error.code) ?? (error.status === 429 ? 'error.RATE_LIMITED' : null);
    return key ? t(key) : error.message;
  };

  const { state, pending, onSubmit } = useFormAction<Notice | null>(async ({ element, data }) => {
    try {
      await sendContact({
        user_name: formText(data, 'user_name'),
        user_email: formText(data, 'user_email'),
        message: formText(data, 'message'),
        contact_name: formText(data, 'contact_name'),
        phone: formText(data, 'phone'),
      });
      element.reset();
      return { tone: 'success', text: t('contact.success') };
    } catch (error) {
      return { tone: 'error', text: t('contact.failure', { error: failureReason(error) }) };
    }
  }, null);

  return (
    <form className="form-card" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="page-title">
        {t('contact.title')}
      </h1>
      <p className="page-lead">{t('contact.intro')}</p>
      <InputField
        label={t('contact.name')}
        name="user_name"
        required
        maxLength={200}
        autoComplete="organization"
      />
      <InputField
        label={t('contact.email')}
        name="user_email"
        type="email"
        required
        maxLength={254}
        autoComplete="email"
      />
      <InputField
        label={t('contact.contactName')}
        name="contact_name"
        required
        maxLength={100}
        autoComplete="name"
      />
      <InputField
        label={t('contact.phone')}
        hint={t('contact.phoneHint')}
        name="phone"
        type="tel"
        inputMode="tel"
        required
        maxLength={30}
        autoComplete="tel"
      />
      <TextAreaField label={t('contact.message')} name="message" rows={5} maxLength={5000} />
      <FormNotice notice={state} />
      <SubmitButton
        className="btn btn--primary btn--block"
        busy={pending}
        label={t('contact.submit')}
        busyLabel={t('contact.sending')}
      />
      <p className="form-card__foot">
        {t('contact.haveAccount')} <a href={loginHref}>{t('contact.login')}</a>
      </p>
    </form>
  );
}
