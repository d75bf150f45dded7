import { type ReactNode, useId } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { WEEK, weekdayName } from '../lib/labels';

/** The days the organization opens: a checkbox a weekday, in a fieldset with its hint. */
export function OpenDaysField({
  days,
  error,
  onChange,
  children,
}: {
  /** 0 = Sunday. */
  days: number[];
  error: string | undefined;
  onChange: (days: number[]) => void;
  /** More inside the fieldset, under the days (the confirmation a new organization gives). */
  children?: ReactNode;
}) {
  const { t, intlLocale } = useI18n();
  const hintId = `${useId()}-days-hint`;
  return (
    <fieldset className={error ? 'field field--invalid' : 'field'} aria-describedby={hintId}>
      <legend>{t('profile.openDays')}</legend>
      <p id={hintId} className="field__hint">
        {t('profile.openDaysHint')}
      </p>
      <div className="day-grid">
        {WEEK.map((day) => (
          <label key={day} className="check">
            <input
              type="checkbox"
              name="open_days"
              value={day}
              checked={days.includes(day)}
              onChange={(e) =>
                onChange(e.target.checked ? [...days, day] : days.filter((d) => d !== day))
              }
            />
            {weekdayName(day, intlLocale, 'long')}
          </label>
        ))}
      </div>
      {error ? <p className="field__error">{error}</p> : null}
      {children}
    </fieldset>
  );
}
