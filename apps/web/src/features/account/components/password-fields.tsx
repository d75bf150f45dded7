import { InputField } from '../../../components/form/field';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import { useI18n } from '../../../i18n/i18n';
import { PASSWORD_MIN, type PasswordProblem, passwordProblem } from '../lib/passwords';

/** A new password typed twice; the problem (if any) shows under the field it concerns. */
export function PasswordFields({ problem }: { problem: PasswordProblem | null }) {
  const { t } = useI18n();
  return (
    <>
      <InputField
        label={t('account.password')}
        hint={t('account.password.hint', { min: PASSWORD_MIN })}
        error={problem === 'tooShort' ? t('account.tooShort', { min: PASSWORD_MIN }) : undefined}
        name="password"
        type="password"
        required
        maxLength={128}
        autoComplete="new-password"
      />
      <InputField
        label={t('account.passwordAgain')}
        error={problem === 'mismatch' ? t('account.mismatch') : undefined}
        name="password_again"
        type="password"
        required
        maxLength={128}
        autoComplete="new-password"
      />
    </>
  );
}

/** Where a form with a new password stands: what to fix, why it failed, or done. */
export interface NewPasswordState<E> {
  problem: PasswordProblem | null;
  error: E | null;
  /** Sent: the button stays busy while the page moves on. */
  done: boolean;
}

const START = { problem: null, error: null, done: false } as const;

/**
 * The action of a form around PasswordFields: the password is checked here before `send`
 * gets it; a failure of `send` is described by `describe`.
 */
export function useNewPasswordForm<E>(
  send: (password: string, data: FormData) => Promise<void>,
  describe: (error: unknown) => E,
) {
  const problemOf = (data: FormData) =>
    passwordProblem(formText(data, 'password'), formText(data, 'password_again'));
  const form = useFormAction<NewPasswordState<E>>(
    async ({ data }) => {
      const problem = problemOf(data);
      if (problem) return { ...START, problem };
      try {
        await send(formText(data, 'password'), data);
        return { ...START, done: true };
      } catch (error) {
        return { ...START, error: describe(error) };
      }
    },
    START,
    ({ data }) => {
      const problem = problemOf(data);
      return problem ? { ...START, problem } : null;
    },
  );
  return { ...form, busy: form.pending || form.state.done };
}
