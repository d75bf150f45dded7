import type { OutboxMessage } from '@qless/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { useAsync } from '../../../lib/use-async';
import { listOutbox } from '../api/console';
import { formatInstant, linkify } from '../lib/format';
import { InboundSmsForm } from './inbound-sms-form';
import { ListState, Pager } from './shared';

const PAGE_SIZE = 10;

/** Customers' messages are named by what they are about (their text is not shown). */
const KIND_LABELS: Record<string, MessageKey> = {
  booking_confirmation: 'outbox.kind.confirmation',
  booking_reminder_day_before: 'outbox.kind.reminderDayBefore',
  booking_reminder_2h: 'outbox.kind.reminder2h',
  booking_cancellation: 'outbox.kind.cancellation',
  booking_reschedule: 'outbox.kind.reschedule',
};

function MailBody({ text }: { text: string }) {
  return (
    <pre className="mail-body">
      {linkify(text).map((part, i) =>
        part.kind === 'link' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text never move.
          <a key={i} href={part.href}>
            {part.href}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <span key={i}>{part.text}</span>
        ),
      )}
    </pre>
  );
}

function MessageState({ message }: { message: OutboxMessage }) {
  const { t, intlLocale } = useI18n();
  switch (message.status) {
    case 'sent': {
      const date = formatInstant(message.sent_at ?? message.created_at, intlLocale);
      if (message.provider === 'simulator') return <>{t('outbox.recorded', { date })}</>;
      return <>{t('platform.outbox.sent', { date })}</>;
    }
    case 'failed':
      return <>{t('platform.outbox.gaveUp', { n: message.attempts })}</>;
    case 'skipped':
      return <>{t('outbox.skipped')}</>;
    default:
      return <>{t('platform.outbox.waiting')}</>;
  }
}

function Title({ message }: { message: OutboxMessage }) {
  const { t } = useI18n();
  const label = KIND_LABELS[message.kind];
  return <>{label ? t(label) : (message.subject ?? message.kind)}</>;
}

export function OutboxPanel() {
  const { t, intlLocale } = useI18n();
  const [page, setPage] = useState(1);
  // A text received by hand (below) queues its answer: the list is read again.
  const [round, setRound] = useState(0);
  const state = useAsync((signal) => listOutbox(page, PAGE_SIZE, signal), [page, round]);
  return (
    <div className="console-panel">
      <InboundSmsForm
        onReceived={() => {
          setPage(1);
          setRound((n) => n + 1);
        }}
      />
      <ListState state={state}>
        {(data) => (
          <>
            <Alert tone="info">
              {data.smtp_configured ? t('platform.outbox.smtp') : t('platform.outbox.noSmtp')}{' '}
              {data.sms_provider === 'simulator'
                ? t('outbox.smsSimulator')
                : t('outbox.smsGateway', { provider: data.sms_provider })}
            </Alert>
            {data.messages.length === 0 ? (
              <p className="empty-state">{t('platform.outbox.empty')}</p>
            ) : (
              <ul className="console-list">
                {data.messages.map((m) => (
                  <li
                    key={m.id}
                    className="console-card"
                    data-mail-to={m.to}
                    data-channel={m.channel}
                    data-kind={m.kind}
                  >
                    <details>
                      <summary>
                        <span className="console-card__head">
                          <strong className="console-card__subject">
                            <Title message={m} />
                          </strong>
                          <span className={`console-tag console-tag--${m.channel}`}>
                            {t(m.channel === 'sms' ? 'outbox.channel.sms' : 'outbox.channel.email')}
                          </span>
                        </span>
                        <span className="console-card__meta">
                          {t('platform.outbox.to', { to: m.to })}
                        </span>
                        <span className="console-card__meta">
                          {formatInstant(m.created_at, intlLocale)} · <MessageState message={m} />
                        </span>
                        <span className="console-card__read">{t('platform.outbox.read')}</span>
                      </summary>
                      {m.attempts > 0 ? (
                        <p className="console-card__meta">
                          {t('platform.outbox.attempts', { n: m.attempts })}
                        </p>
                      ) : null}
                      {m.status === 'pending' && m.attempts > 0 && m.next_attempt_at ? (
                        <p className="console-card__meta">
                          {t('outbox.nextAttempt', {
                            date: formatInstant(m.next_attempt_at, intlLocale),
                          })}
                        </p>
                      ) : null}
                      {m.last_error ? (
                        <p className="console-card__meta">
                          {t(
                            m.status === 'skipped' ? 'outbox.skipReason' : 'platform.outbox.error',
                            {
                              error: m.last_error,
                            },
                          )}
                        </p>
                      ) : null}
                      {m.text_body !== null ? (
                        <MailBody text={m.text_body} />
                      ) : (
                        <p className="console-card__meta">
                          {t('outbox.customerText', {
                            lang: m.locale === 'fr' ? t('outbox.lang.fr') : t('outbox.lang.en'),
                          })}
                        </p>
                      )}
                    </details>
                  </li>
                ))}
              </ul>
            )}
            <Pager page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} />
          </>
        )}
      </ListState>
    </div>
  );
}
