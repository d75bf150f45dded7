import type { QueueSettings } from '@qless/contract';
import { InputField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { useFormAction } from '../../../components/form/use-form-action';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { saveQueueSettings } from '../api/queue-api';
import { CATEGORY_KEY, PRIORITY_CATEGORY_LIST, parseFairOrder } from '../lib/fair-order';
import { queueErrorKey } from '../lib/queue-errors';

const FIELD_TEXT = {
  Priority: ['queueSetup.fair.ratioPriority', 'queueSetup.fair.ratioPriorityHint'],
  Others: ['queueSetup.fair.ratioOthers', 'queueSetup.fair.ratioOthersHint'],
  Ceiling: ['queueSetup.fair.ceiling', 'queueSetup.fair.ceilingHint'],
} as const satisfies Record<string, readonly [MessageKey, MessageKey]>;

/**
 * Priority visitors (decision 138): the categories the organization serves first, "p priority,
 * then o others" (each counter counts its own calls), and the ageing ceiling. Saved with the
 * rest of the settings as they are.
 */
export function FairOrderEditor(props: { settings: QueueSettings; onSaved: () => Promise<void> }) {
  const { t } = useI18n();
  const { settings } = props;
  const form = useFormAction<{ notice: Notice | null }>(
    async ({ element, data }) => {
      // A number field holding what is not a number submits as empty: "none" would be saved.
      const unreadable = [...element.querySelectorAll('input[type="number"]')].some(
        (input) => (input as HTMLInputElement).validity.badInput,
      );
      const fair = unreadable ? null : parseFairOrder(data);
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
  /** A whole number or empty (none), its label and hint from FIELD_TEXT. */
  const numberField = (
    name: string,
    key: keyof typeof FIELD_TEXT,
    min: number,
    max: number,
    value: number | null | undefined,
  ) => (
    <InputField
      label={t(FIELD_TEXT[key][0])}
      hint={t(FIELD_TEXT[key][1])}
      name={name}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      step={1}
      defaultValue={value === null || value === undefined ? '' : String(value)}
    />
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
          {numberField('ratio_priority', 'Priority', 1, 5, settings.ratio?.priority)}
          {numberField('ratio_others', 'Others', 0, 10, settings.ratio?.others)}
          {numberField(
            'ageing_ceiling_minutes',
            'Ceiling',
            10,
            240,
            settings.ageing_ceiling_minutes,
          )}
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
