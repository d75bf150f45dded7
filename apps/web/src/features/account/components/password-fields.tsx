import { Field } from '../../../components/ui/field';
import { useI18n } from '../../../i18n/i18n';
import { PASSWORD_MIN, type PasswordProblem } from '../lib/passwords';

/** A new password typed twice; the problem (if any) shows under the field it concerns. */
export function PasswordFields(props: {
  password: string;
  again: string;
  onPassword: (value: string) => void;
  onAgain: (value: string) => void;
  problem: PasswordProblem | null;
}) {
  const { t } = useI18n();
  return (
    <>
      <Field
        label={t('account.password')}
        hint={t('account.password.hint', { min: PASSWORD_MIN })}
        error={
          props.problem === 'tooShort' ? t('account.tooShort', { min: PASSWORD_MIN }) : undefined
        }
      >
        {(ids) => (
          <input
            {...ids}
            name="password"
            type="password"
            className="input"
            required
            maxLength={128}
            autoComplete="new-password"
            value={props.password}
            onChange={(e) => props.onPassword(e.target.value)}
          />
        )}
      </Field>
      <Field
        label={t('account.passwordAgain')}
        error={props.problem === 'mismatch' ? t('account.mismatch') : undefined}
      >
        {(ids) => (
          <input
            {...ids}
            name="password_again"
            type="password"
            className="input"
            required
            maxLength={128}
            autoComplete="new-password"
            value={props.again}
            onChange={(e) => props.onAgain(e.target.value)}
          />
        )}
      </Field>
    </>
  );
}
