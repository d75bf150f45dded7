import { CALL_REASONS, type CallReason, type QueueVisit } from '@qless/contract';
import { useId, useState } from 'react';
import { useI18n } from '../../../i18n/i18n';

/**
 * Calling a chosen number out of turn (decision 139): a customer back with a missing document,
 * an urgent need. Folded away under the counter's buttons; a reason from the short list is
 * required, and the screen says that the call, the clerk and the reason are kept and that the
 * board shows it as out of turn.
 */
export function CallOutOfTurn(props: {
  /** The branch's waiting visitors, in the order the screen lists them. */
  waiting: readonly QueueVisit[];
  busy: boolean;
  disabled: boolean;
  /** The counter serves someone: the call finishes them first (the server's rule). */
  serving: boolean;
  onCall: (visitId: string, reason: CallReason) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [visitId, setVisitId] = useState('');
  const [reason, setReason] = useState<CallReason | ''>('');
  const [missing, setMissing] = useState(false);
  const chosen = props.waiting.some((v) => v.visit_id === visitId) ? visitId : '';
  if (props.waiting.length === 0) return null;
  return (
    <details className="queue-jump">
      <summary>{t('queue.jump.title')}</summary>
      <form
        className="queue-jump__form"
        aria-describedby={`${id}-note`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setMissing(!chosen || !reason);
          if (chosen && reason) props.onCall(chosen, reason);
        }}
      >
        <p id={`${id}-note`} className="field__hint">
          {t('queue.jump.note')}
          {props.serving ? ` ${t('queue.jump.finishes')}` : ''}
        </p>
        <label htmlFor={`${id}-visit`}>{t('queue.jump.visit')}</label>
        <select
          id={`${id}-visit`}
          className="input"
          value={chosen}
          onChange={(event) => setVisitId(event.target.value)}
          required
          aria-invalid={missing && !chosen ? true : undefined}
        >
          <option value="">{t('queue.jump.choose')}</option>
          {props.waiting.map((v) => (
            <option key={v.visit_id} value={v.visit_id}>
              {v.customer_name ? `${v.number} · ${v.customer_name}` : v.number}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-reason`}>{t('queue.jump.reason')}</label>
        <select
          id={`${id}-reason`}
          className="input"
          value={reason}
          onChange={(event) => setReason(event.target.value as CallReason | '')}
          required
          aria-invalid={missing && !reason ? true : undefined}
        >
          <option value="">{t('queue.jump.reasonChoose')}</option>
          {CALL_REASONS.map((r) => (
            <option key={r} value={r}>
              {t(`queue.reason.${r}`)}
            </option>
          ))}
        </select>
        {missing && (!chosen || !reason) ? (
          <p className="field__error" role="alert">
            {t('queue.jump.missing')}
          </p>
        ) : null}
        <button
          type="submit"
          className="btn btn--secondary"
          disabled={props.busy || props.disabled}
        >
          {t('queue.jump.submit')}
        </button>
      </form>
    </details>
  );
}
