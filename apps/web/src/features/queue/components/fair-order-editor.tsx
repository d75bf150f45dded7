import type { QueueSettings } from '@qless/contract';
import { InputField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { useFormAction } from '../../../components/form/use-form-action';
import { useI18n } from '../../../i18n/i18n';
import { saveQueueSettings } from '../api/queue-api';
import { CATEGORY_KEY, PRIORITY_CATEGORY_LIST, parseFairOrder } from '../lib/fair-order';
import { queueErrorKey } from '../lib/queue-errors';

/**
 * Priority visitors (decision 138): the categories the organization serves first, "p priority,
 * then o others" (each counter counts its own calls), and the ageing ceiling. Saved with the
 * rest of the settings as they are.
 */
export function FairOrderEditor(props: { settings: QueueSettings; onSaved: () => Promise<void> }) {
  const { t } = useI18n();
  const { settings } = props;
  const form = useFormAction<{ notice: Notice | null }>(
    async ({ data }) => {
      const fair = parseFairOrder(data);
      if (!fair) return { notice: { tone: 'error', text: t('queueSetup.fair.invalid') } };
      try {
        await saveQueueSettings({ ...settings, ...fair });
        await props.onSaved();
        return { notice: { tone: 'success', text: t('queueSetup.fair.saved') } };
      } catch (failure) {
        return { notice: { tone: 'error', text: t(queueErrorKey(failure)) } };
      }
    },
    { notice: null },
  );
  return (
    <section className="panel" aria-labelledby="queue-fair-title">
      <h2 id="queue-fair-title">{t('queueSetup.fair.title')}</h2>
      <p className="hint">{t('queueSetup.fair.body')}</p>
      <form onSubmit={form.onSubmit} noValidate>
        <fieldset className="queue-setup__choice" data-testid="priority-categories">
          <legend>{t('queueSetup.fair.categories')}</legend>
          {PRIORITY_CATEGORY_LIST.map((category) => (
            <label key={category} className="queue-check">
              <input
                type="checkbox"
                name={`category_${category}`}
                defaultChecked={settings.priority_categories.includes(category)}
              />
              <span>{t(CATEGORY_KEY[category])}</span>
            </label>
          ))}
        </fieldset>
        <div className="queue-setup__grid">
          <InputField
            label={t('queueSetup.fair.premiumLabel')}
            hint={t('queueSetup.fair.premiumLabelHint')}
            name="premium_label"
            maxLength={40}
            defaultValue={settings.premium_label ?? ''}
          />
          <InputField
            label={t('queueSetup.fair.ratioPriority')}
            hint={t('queueSetup.fair.ratioPriorityHint')}
            name="ratio_priority"
            type="number"
            inputMode="numeric"
            min={1}
            max={5}
            step={1}
            defaultValue={settings.ratio ? String(settings.ratio.priority) : ''}
          />
          <InputField
            label={t('queueSetup.fair.ratioOthers')}
            hint={t('queueSetup.fair.ratioOthersHint')}
            name="ratio_others"
            type="number"
            inputMode="numeric"
            min={0}
            max={10}
            step={1}
            defaultValue={settings.ratio ? String(settings.ratio.others) : ''}
          />
          <InputField
            label={t('queueSetup.fair.ceiling')}
            hint={t('queueSetup.fair.ceilingHint')}
            name="ageing_ceiling_minutes"
            type="number"
            inputMode="numeric"
            min={10}
            max={240}
            step={1}
            defaultValue={
              settings.ageing_ceiling_minutes === null
                ? ''
                : String(settings.ageing_ceiling_minutes)
            }
          />
        </div>
        <FormNotice notice={form.state.notice} />
        <SubmitButton
          busy={form.pending}
          label={t('queueSetup.fair.save')}
          busyLabel={t('queueSetup.saving')}
        />
      </form>
    </section>
  );
}
