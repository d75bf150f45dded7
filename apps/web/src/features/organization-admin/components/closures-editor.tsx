import type { Closure } from '@qless/contract';
import { type FormEvent, useId, useState } from 'react';
import { InputField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { useAction } from '../../../components/form/use-form-action';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { addClosure } from '../api/add-closure';
import { removeClosure } from '../api/remove-closure';
import { formErrors } from '../lib/form-errors';
import { FlaggedLine } from './notices';

/** An add or a remove: which (for the busy label), the call, and its words once done. */
interface Change {
  key: string;
  call: () => ReturnType<typeof addClosure>;
  done: MessageKey;
  /** After the change went through. */
  afterwards?: () => void;
}

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
  const [acting, setActing] = useState<string | null>(null);

  const action = useAction<Notice | null, Change>(async ({ call, done, afterwards }) => {
    try {
      const change = await call();
      setClosures(change.closures);
      await onChanged();
      afterwards?.();
      return {
        tone: 'success',
        text: (
          <>
            <p>{t(done)}</p>
            <FlaggedLine count={change.flagged_bookings} href={attentionHref} />
          </>
        ),
      };
    } catch (error) {
      const found = formErrors(error, { date: null, reason: null });
      if (found.fields.date) setDateError(found.fields.date);
      const reasons = [...found.other];
      if (found.fields.reason) reasons.push(found.fields.reason);
      return {
        tone: 'error',
        text: (
          <>
            <p>{t('closures.failed')}</p>
            {reasons.map((key) => (
              <p key={key}>{t(key)}</p>
            ))}
          </>
        ),
      };
    }
  }, null);
  const busy = action.pending ? acting : null;
  const run = (change: Change) => {
    setActing(change.key);
    action.run(change);
  };

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!date) {
      setDateError('validation.required');
      return;
    }
    setDateError(null);
    run({
      key: 'add',
      call: () => addClosure({ date, reason: reason.trim() }),
      done: 'closures.added',
      afterwards: () => {
        setDate('');
        setReason('');
      },
    });
  };

  return (
    <section className="form-card closures-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('closures.title')}</h2>
      <p className="hint">{t('closures.hint')}</p>
      <FormNotice notice={action.state} />
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
                    run({
                      key: `remove:${c.date}`,
                      call: () => removeClosure(c.date),
                      done: 'closures.removed',
                    })
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
        <InputField
          label={t('closures.date')}
          error={dateError ? t(dateError) : undefined}
          type="date"
          required
          value={date}
          onChange={(e) => setDate(e.target.value)}
        />
        <InputField
          label={t('closures.reason')}
          maxLength={200}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <SubmitButton
          className="btn btn--secondary"
          busy={busy === 'add'}
          disabled={busy !== null}
          label={t('closures.add')}
          busyLabel={t('closures.adding')}
        />
      </form>
    </section>
  );
}
