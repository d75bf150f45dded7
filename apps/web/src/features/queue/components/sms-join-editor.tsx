import type { SmsJoinSettings } from '@qless/contract';
import { useEffect, useId, useState } from 'react';
import { InputField } from '../../../components/form/field';
import type { Notice } from '../../../components/form/form-status';
import { FormNotice, SubmitButton } from '../../../components/form/form-status';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { getSmsJoin, saveSmsJoin } from '../api/queue-api';
import { queueErrorKey } from '../lib/queue-errors';

/**
 * Joining by SMS (decision 136): the branch's word; the board in the hall shows it with the
 * code of the day, and this panel says what visitors text today and where.
 */
export function SmsJoinEditor() {
  const { t } = useI18n();
  const titleId = useId();
  const [settings, setSettings] = useState<SmsJoinSettings | null>(null);
  const [failed, setFailed] = useState<unknown>(null);

  useEffect(() => {
    const controller = new AbortController();
    getSmsJoin(controller.signal).then(setSettings, (error: unknown) => {
      if (!controller.signal.aborted) setFailed(error);
    });
    return () => controller.abort();
  }, []);

  const form = useFormAction<{ notice: Notice | null }>(
    async ({ element, data }) => {
      try {
        const saved = await saveSmsJoin(formText(data, 'keyword', true) || null);
        setSettings(saved);
        // The word as stored (upper case, no spaces).
        const field = element.elements.namedItem('keyword');
        if (field instanceof HTMLInputElement) field.value = saved.keyword ?? '';
        return { notice: { tone: 'success', text: t('queueSetup.sms.saved') } };
      } catch (error) {
        return { notice: { tone: 'error', text: t(queueErrorKey(error)) } };
      }
    },
    { notice: null },
  );

  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('queueSetup.sms.title')}</h2>
      <p className="hint">{t('queueSetup.sms.body')}</p>
      {settings === null ? (
        failed ? (
          <p className="alert alert--error" role="alert">
            {t(queueErrorKey(failed))}
          </p>
        ) : (
          <Spinner label={t('common.loading')} />
        )
      ) : (
        <form onSubmit={form.onSubmit} noValidate>
          <InputField
            label={t('queueSetup.sms.keyword')}
            hint={t('queueSetup.sms.keywordHint')}
            name="keyword"
            maxLength={12}
            autoCapitalize="characters"
            autoComplete="off"
            defaultValue={settings.keyword ?? ''}
          />
          {settings.today && settings.number ? (
            <p data-testid="sms-join-today">
              {t('queueSetup.sms.today', { text: settings.today, number: settings.number })}
            </p>
          ) : settings.number === null ? (
            <p className="hint">{t('queueSetup.sms.noNumber')}</p>
          ) : null}
          <FormNotice notice={form.state.notice} />
          <SubmitButton
            busy={form.pending}
            label={t('queueSetup.sms.save')}
            busyLabel={t('queueSetup.saving')}
          />
        </form>
      )}
    </section>
  );
}
