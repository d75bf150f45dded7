import type { OutboxMail } from '@qless/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { useI18n } from '../../../i18n/i18n';
import { useAsync } from '../../../lib/use-async';
import { listOutbox } from '../api/console';
import { formatInstant, linkify } from '../lib/format';
import { ListState, Pager } from './shared';

const PAGE_SIZE = 10;

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

function MailState({ mail }: { mail: OutboxMail }) {
  const { t, intlLocale } = useI18n();
  if (mail.sent_at)
    return <>{t('platform.outbox.sent', { date: formatInstant(mail.sent_at, intlLocale) })}</>;
  if (mail.attempts > 0 && mail.next_attempt_at === null) {
    return <>{t('platform.outbox.gaveUp', { n: mail.attempts })}</>;
  }
  return <>{t('platform.outbox.waiting')}</>;
}

export function OutboxPanel() {
  const { t, intlLocale } = useI18n();
  const [page, setPage] = useState(1);
  const state = useAsync((signal) => listOutbox(page, PAGE_SIZE, signal), [page]);
  return (
    <div className="console-panel">
      <ListState state={state}>
        {(data) => (
          <>
            <Alert tone="info">
              {data.smtp_configured ? t('platform.outbox.smtp') : t('platform.outbox.noSmtp')}
            </Alert>
            {data.mail.length === 0 ? (
              <p className="empty-state">{t('platform.outbox.empty')}</p>
            ) : (
              <ul className="console-list">
                {data.mail.map((m) => (
                  <li key={m.id} className="console-card" data-mail-to={m.to}>
                    <details>
                      <summary>
                        <strong className="console-card__subject">{m.subject}</strong>
                        <span className="console-card__meta">
                          {t('platform.outbox.to', { to: m.to })}
                        </span>
                        <span className="console-card__meta">
                          {formatInstant(m.created_at, intlLocale)} · <MailState mail={m} />
                        </span>
                        <span className="console-card__read">{t('platform.outbox.read')}</span>
                      </summary>
                      {m.attempts > 0 ? (
                        <p className="console-card__meta">
                          {t('platform.outbox.attempts', { n: m.attempts })}
                        </p>
                      ) : null}
                      {m.last_error ? (
                        <p className="console-card__meta">
                          {t('platform.outbox.error', { error: m.last_error })}
                        </p>
                      ) : null}
                      <MailBody text={m.text_body} />
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
