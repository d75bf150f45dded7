import type { Closure } from '@qless/contract';
import { type FormEvent, useId, useState } from 'react';
import { Field } from '../../../components/form/field';
import { Alert } from '../../../components/ui/alert';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { addClosure } from '../api/add-closure';
import { removeClosure } from '../api/remove-closure';
import { formErrors } from '../lib/form-errors';
import { FlaggedLine } from './notices';

type Result =
  | { tone: 'success'; text: MessageKey; flagged: number }
  | { tone: 'error'; reasons: MessageKey[] }
  | null;

/** Closure dates (holidays): each added or removed at once, apart from Save Changes. */
export function ClosuresEditor({
  closures: initial,
  attentionHref,
  onChanged,
}: {
  closures: Closure[];
  attentionHref: string;
  onChanged: () => Promise<void>;
}) {
  const { t, intlLocale } = useI18n();
  const id = useId();
  const [closures, setClosures] = useState(initial);
  const [date, setDate] = useState('');
  const [reason, setReason] = useState('');
  const [dateError, setDateError] = useState<MessageKey | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [result, setResult] = useState<Result>(null);

  const run = async (
    key: string,
    action: () => ReturnType<typeof addClosure>,
    done: MessageKey,
  ) => {
    setBusy(key);
    setResult(null);
    try {
      const change = await action();
      setClosures(change.closures);
      setResult({ tone: 'success', text: done, flagged: change.flagged_bookings });
      await onChanged();
      return true;
    } catch (error) {
      const found = formErrors(error, { date: null, reason: null });
      if (found.fields.date) setDateError(found.fields.date);
      const reasons = [...found.other];
      if (found.fields.reason) reasons.push(found.fields.reason);
      setResult({ tone: 'error', reasons });
      return false;
    } finally {
      setBusy(null);
    }
  };

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!date) {
      setDateError('validation.required');
      return;
    }
    setDateError(null);
    const ok = await run(
      'add',
      () => addClosure({ date, reason: reason.trim() }),
      'closures.added',
    );
    if (ok) {
      setDate('');
      setReason('');
    }
  };

  return (
    <section className="form-card closures-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('closures.title')}</h2>
      <p className="hint">{t('closures.hint')}</p>
      <div aria-live="polite">
        {result?.tone === 'success' ? (
          <Alert tone="success">
            <p>{t(result.text)}</p>
            <FlaggedLine count={result.flagged} href={attentionHref} />
          </Alert>
        ) : null}
        {result?.tone === 'error' ? (
          <Alert tone="error">
            <p>{t('closures.failed')}</p>
            {result.reasons.map((key) => (
              <p key={key}>{t(key)}</p>
            ))}
          </Alert>
        ) : null}
      </div>
      {closures.length === 0 ? (
        <p className="hint">{t('closures.empty')}</p>
      ) : (
        <ul className="closures">
          {closures.map((c) => {
            const day = formatDate(c.date, intlLocale, LONG_DATE);
            return (
              <li key={c.date}>
                <span>
                  <span className="upcoming__who">{day}</span>
                  {c.reason ? <span className="cell-sub">{c.reason}</span> : null}
                </span>
                <button
                  type="button"
                  className="btn btn--secondary btn--small"
                  aria-label={t('closures.removeLabel', { date: day })}
                  disabled={busy !== null}
                  onClick={() =>
                    run(`remove:${c.date}`, () => removeClosure(c.date), 'closures.removed')
                  }
                >
                  {t('closures.remove')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form className="closure-add" onSubmit={add} noValidate>
        <Field label={t('closures.date')} error={dateError ? t(dateError) : undefined}>
          {(ids) => (
            <input
              {...ids}
              type="date"
              className="input"
              required
              value={date}
              onChange={(e) => setDate(e.target.value)}
            />
          )}
        </Field>
        <Field label={t('closures.reason')}>
          {(ids) => (
            <input
              {...ids}
              className="input"
              maxLength={200}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="btn btn--secondary" disabled={busy !== null}>
          {busy === 'add' ? t('closures.adding') : t('closures.add')}
        </button>
      </form>
    </section>
  );
}
