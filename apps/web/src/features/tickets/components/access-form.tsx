import type { TicketAccessResponse } from '@qless/contract';
import { useId, useRef, useState } from 'react';
import { InputField } from '../../../components/form/field';
import { SubmitButton } from '../../../components/form/form-status';
import { useAction } from '../../../components/form/use-form-action';
import { Alert } from '../../../components/ui/alert';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { accessTicket } from '../api/ticket-access';
import { type AccessFieldError, validateAccessForm } from '../lib/access-form';
import { errorText, waitText } from '../lib/booking-text';

const CODE_ERRORS: Record<AccessFieldError, MessageKey> = {
  required: 'ticketPage.access.codeRequired',
  invalid: 'ticketPage.access.codeInvalid',
};
const DIGIT_ERRORS: Record<AccessFieldError, MessageKey> = {
  required: 'ticketPage.access.last4Required',
  invalid: 'ticketPage.access.last4Invalid',
};

interface Answer {
  errors: { code?: AccessFieldError; last4?: AccessFieldError };
  failure: string | null;
}
const NONE: Answer = { errors: {}, failure: null };

interface Props {
  /** The code is known (the ticket page): only the digits are asked. */
  code?: string;
  title: string;
  intro: string;
  /** Heading level of the title in the page. */
  level?: 2 | 3;
  onAccess: (result: TicketAccessResponse, code: string) => void;
}

/** "Ticket code + last four digits of the phone number": the proof asked on another device. */
export function AccessForm({ code: fixedCode, title, intro, level = 2, onAccess }: Props) {
  const { t, intlLocale } = useI18n();
  const titleId = useId();
  const [code, setCode] = useState(fixedCode ?? '');
  const [last4, setLast4] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const Heading = level === 2 ? 'h2' : 'h3';

  const validate = () => validateAccessForm({ code: fixedCode ?? code, last4 });
  const refuse = (): Answer | null => {
    const checked = validate();
    if (checked.ok) return null;
    const first = checked.errors.code && !fixedCode ? 'code' : 'last4';
    formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
    return { ...NONE, errors: checked.errors };
  };
  const { state, pending, run } = useAction<Answer, null>(
    async () => {
      const checked = validate();
      if (!checked.ok) return { ...NONE, errors: checked.errors };
      try {
        const result = await accessTicket(checked.code, { phone_last4: checked.phoneLast4 });
        onAccess(result, checked.code);
        return NONE;
      } catch (error) {
        const text = errorText(error);
        const wait = text.wait !== null ? { wait: waitText(text.wait, intlLocale) } : undefined;
        return { ...NONE, failure: t(text.key, wait) };
      }
    },
    NONE,
    refuse,
  );
  const { errors, failure } = state;

  return (
    <section className="ticket-card access-form" aria-labelledby={titleId}>
      <Heading id={titleId} className="ticket-card__title">
        {title}
      </Heading>
      <p className="hint">{intro}</p>
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!pending) run(null);
        }}
      >
        {fixedCode ? null : (
          <InputField
            label={t('ticketPage.access.code')}
            hint={t('ticketPage.access.codeHint')}
            error={errors.code ? t(CODE_ERRORS[errors.code]) : undefined}
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        )}
        <InputField
          label={t('ticketPage.access.last4')}
          error={errors.last4 ? t(DIGIT_ERRORS[errors.last4]) : undefined}
          name="last4"
          className="input access-form__digits"
          inputMode="numeric"
          autoComplete="off"
          maxLength={6}
          value={last4}
          onChange={(e) => setLast4(e.target.value)}
        />
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <SubmitButton
          className="btn btn--primary btn--block"
          busy={pending}
          label={t('ticketPage.access.submit')}
          busyLabel={t('ticketPage.access.checking')}
        />
      </form>
    </section>
  );
}
