import type { CheckinSyncResult } from '@qless/contract';
import { localizedServiceName } from '@qless/contract/core';
import { useI18n } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates';
import { type Outcome, outcomeMessage } from '../lib/outcome';

const DAY_MONTH = { day: 'numeric', month: 'long' } as const;

/** What the last scan came to, in words, with whose ticket it was. */
export function ResultPanel({ outcome }: { outcome: Outcome | null }) {
  const { t, locale, intlLocale } = useI18n();
  if (!outcome) return null;
  const message = outcomeMessage(outcome);
  const text = t(message.key, {
    ...(message.time ? { time: message.time } : {}),
    ...(message.date ? { date: formatDate(message.date, intlLocale, DAY_MONTH) } : {}),
  });
  const booking =
    outcome.kind === 'checked_in' || outcome.kind === 'refused' ? outcome.booking : null;
  const service = booking && localizedServiceName(booking, locale);
  return (
    <div
      className={`checkin-result checkin-result--${message.tone}`}
      role="status"
      aria-live="polite"
    >
      <p className="checkin-result__text" data-testid="checkin-result">
        {text}
      </p>
      {outcome.kind === 'checked_in' && outcome.queue ? (
        <QueueArrival number={outcome.queue.number} openCounter={outcome.queue.open_counter} />
      ) : null}
      {booking ? (
        <p className="checkin-result__who">
          {booking.cus_name} · {service} · {booking.time}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The queue number to read out to the visitor, large; and a neutral word when no open counter
 * serves their service yet: they wait until one opens.
 */
export function QueueArrival(props: { number: string; openCounter: boolean }) {
  const { t } = useI18n();
  return (
    <>
      <p className="checkin-result__number" data-testid="checkin-queue-number">
        <span className="checkin-result__number-label">{t('checkin.result.queueNumber')}</span>
        <span className="checkin-result__number-value" translate="no">
          {props.number}
        </span>
      </p>
      {props.openCounter ? null : (
        <p className="checkin-result__warning" data-testid="checkin-no-counter">
          {t('checkin.result.noOpenCounter')}
        </p>
      )}
    </>
  );
}

/** What the server said about check-ins sent after being offline, when it was not a plain yes. */
export function SyncConflicts(props: {
  conflicts: readonly CheckinSyncResult[];
  timeZone: string;
  onDismiss: () => void;
}) {
  const { t, intlLocale } = useI18n();
  if (props.conflicts.length === 0) return null;
  const line = (c: CheckinSyncResult) => {
    const who = c.cus_name ?? c.ticket_code ?? t('checkin.conflicts.unknownTicket');
    if (c.result === 'already_checked_in') {
      return t('checkin.conflicts.already', { name: who, time: c.checked_in_time ?? '—' });
    }
    if (c.result === 'checked_in') {
      const other = c.replaced_scan_at
        ? new Intl.DateTimeFormat(intlLocale, {
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
            timeZone: props.timeZone,
          }).format(new Date(c.replaced_scan_at))
        : '—';
      return t('checkin.conflicts.twice', { name: who, time: c.checked_in_time ?? '—', other });
    }
    const { key, date } = outcomeMessage({
      kind: 'refused',
      reason: c.reason === 'OK' ? 'UNKNOWN_TICKET' : c.reason,
      date: c.date,
      time: c.checked_in_time,
      booking: null,
    });
    const reason = t(key, date ? { date: formatDate(date, intlLocale, DAY_MONTH) } : {});
    return t('checkin.conflicts.refused', { name: who, reason });
  };
  return (
    <section className="checkin-conflicts" aria-labelledby="checkin-conflicts-title">
      <h2 id="checkin-conflicts-title" className="checkin-conflicts__title">
        {t('checkin.conflicts.title')}
      </h2>
      <ul>
        {props.conflicts.map((c) => (
          <li key={c.client_id}>{line(c)}</li>
        ))}
      </ul>
      <button type="button" className="btn btn--secondary btn--small" onClick={props.onDismiss}>
        {t('checkin.conflicts.dismiss')}
      </button>
    </section>
  );
}
