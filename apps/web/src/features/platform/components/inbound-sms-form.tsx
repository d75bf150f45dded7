import type { ConsoleSmsResponse } from '@qless/contract';
import { useId, useState } from 'react';
import { InputField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import { useI18n } from '../../../i18n/i18n';
import { apiErrorKey } from '../../../lib/error-keys';
import { useAsync } from '../../../lib/use-async';
import { inboundSmsUrl, receiveSms } from '../api/console';

/**
 * The SMS gateway's inbound side (decision 136): the address to give the gateway for the
 * texts it receives, and a text "received" by hand — how a demo on the simulator joins a line
 * from a basic phone. The answer goes to the outbox below, like every SMS.
 */
export function InboundSmsForm({ onReceived }: { onReceived: () => void }) {
  const { t } = useI18n();
  const titleId = useId();
  const url = useAsync((signal) => inboundSmsUrl(signal), []);
  const [answer, setAnswer] = useState<ConsoleSmsResponse | null>(null);
  const form = useFormAction<{ notice: Notice | null }>(
    async ({ data }) => {
      try {
        const received = await receiveSms(
          formText(data, 'from', true),
          formText(data, 'text', true),
        );
        setAnswer(received);
        onReceived();
        return { notice: null };
      } catch (error) {
        setAnswer(null);
        return { notice: { tone: 'error', text: t(apiErrorKey(error)) } };
      }
    },
    { notice: null },
  );
  return (
    <section className="console-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('platform.sms.title')}</h2>
      <p className="hint">{t('platform.sms.body')}</p>
      {url.status === 'success' ? (
        <p className="console-card__meta">
          {t('platform.sms.url')} <code data-testid="sms-inbound-url">{url.data.url}</code>
        </p>
      ) : null}
      <form onSubmit={form.onSubmit} noValidate>
        <InputField label={t('platform.sms.from')} name="from" type="tel" autoComplete="off" />
        <InputField label={t('platform.sms.text')} name="text" autoComplete="off" maxLength={480} />
        <FormNotice notice={form.state.notice} />
        <SubmitButton
          busy={form.pending}
          label={t('platform.sms.receive')}
          busyLabel={t('platform.sms.receiving')}
        />
      </form>
      {answer ? (
        <p className="alert alert--success" role="status" data-testid="sms-answer">
          {answer.reply
            ? t('platform.sms.answered', { reply: answer.reply })
            : t('platform.sms.noAnswer')}
        </p>
      ) : null}
    </section>
  );
}
