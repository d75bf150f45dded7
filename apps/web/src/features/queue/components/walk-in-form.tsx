import type { CustomerLocale, PriorityCategory, QueueTodayResponse } from '@qless/contract';
import { localizedText, normalizeCameroonMobile } from '@qless/contract/core';
import { useRef, useState } from 'react';
import { InputField, SelectField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { addWalkIn } from '../api/queue-api';
import { CATEGORY_KEY } from '../lib/fair-order';
import { queueErrorKey } from '../lib/queue-errors';
import { PrintSlip } from './print-slip';

type Services = QueueTodayResponse['services'];
type FieldName = 'service' | 'name' | 'phone';
interface State {
  notice: Notice | null;
  errors: Partial<Record<FieldName, MessageKey>>;
}
const INITIAL: State = { notice: null, errors: {} };

/** The server's field codes, on the field they concern. */
const FIELD_OF_CODE: Record<string, FieldName> = {
  INVALID_ID: 'service',
  SERVICE_NOT_FOUND: 'service',
  INVALID_NAME: 'name',
  INVALID_PHONE: 'phone',
};

/** A walk-in added by the clerk: service, name, optional phone, the language of their SMS. */
export function WalkInForm(props: {
  services: Services;
  /** The services of the clerk's counter come first in the list. */
  preferred: readonly string[];
  onAdded: () => Promise<void>;
  /** Changes with each act of the clerk elsewhere: the last answer here is then cleared. */
  clearKey?: number;
  /** The categories the organization serves first (decision 138), and its premium clients' name. */
  priority?: { categories: readonly PriorityCategory[]; premiumLabel: string | null };
}) {
  const { t, locale } = useI18n();
  // The clearKey the shown answer belongs to: "has number C-002" goes with the next act.
  const latestKey = useRef(props.clearKey ?? 0);
  latestKey.current = props.clearKey ?? 0;
  const [answeredAt, setAnsweredAt] = useState(latestKey.current);
  /** The walk-in just added: its ticket can be printed. */
  const [added, setAdded] = useState<string | null>(null);
  const ordered = [...props.services].sort(
    (a, b) =>
      Number(props.preferred.includes(b.service_id)) -
      Number(props.preferred.includes(a.service_id)),
  );

  const check = ({ data }: { data: FormData }): State | null => {
    const errors: State['errors'] = {};
    if (!formText(data, 'service_id')) errors.service = 'queue.walkIn.serviceRequired';
    if (!formText(data, 'name', true)) errors.name = 'queue.walkIn.nameRequired';
    const phone = formText(data, 'phone', true);
    if (phone && !normalizeCameroonMobile(phone)) errors.phone = 'error.INVALID_PHONE';
    return Object.keys(errors).length > 0 ? { notice: null, errors } : null;
  };

  const form = useFormAction<State>(
    async ({ element, data }) => {
      const phone = formText(data, 'phone', true);
      try {
        const { visit } = await addWalkIn({
          service_id: formText(data, 'service_id'),
          name: formText(data, 'name', true),
          ...(phone ? { phone } : {}),
          locale: (formText(data, 'locale') || locale) as CustomerLocale,
          ...(formText(data, 'priority_category')
            ? { priority_category: formText(data, 'priority_category') as PriorityCategory }
            : {}),
        });
        setAnsweredAt(latestKey.current);
        setAdded(visit.visit_id);
        element.reset();
        // The next person in front of the desk: straight to their name.
        element.querySelector<HTMLInputElement>('input[name="name"]')?.focus();
        await props.onAdded();
        return {
          notice: {
            tone: 'success',
            text: t('queue.walkIn.added', { number: visit.number, name: visit.customer_name }),
          },
          errors: {},
        };
      } catch (failure) {
        const problems = failure instanceof ApiError ? failure.details : [];
        const errors: State['errors'] = {};
        for (const p of problems) {
          const field = FIELD_OF_CODE[p.code];
          if (field) errors[field] = queueErrorKey(new ApiError(400, p.code, ''));
        }
        setAnsweredAt(latestKey.current);
        return { notice: { tone: 'error', text: t(queueErrorKey(failure)) }, errors };
      }
    },
    INITIAL,
    check,
  );
  const { errors } = form.state;
  const err = (field: FieldName) => {
    const key = errors[field];
    return key ? t(key) : undefined;
  };

  return (
    <form className="queue-walkin" onSubmit={form.onSubmit} noValidate>
      <SelectField
        label={t('queue.walkIn.service')}
        name="service_id"
        defaultValue={ordered.length === 1 ? ordered[0]?.service_id : ''}
        error={err('service')}
      >
        <option value="">{t('queue.walkIn.serviceChoose')}</option>
        {ordered.map((s) => (
          <option key={s.service_id} value={s.service_id}>
            {localizedText(s.name, s.name_fr, locale)}
          </option>
        ))}
      </SelectField>
      <InputField
        label={t('queue.walkIn.name')}
        name="name"
        autoComplete="off"
        maxLength={80}
        error={err('name')}
      />
      <InputField
        label={t('queue.walkIn.phone')}
        hint={t('queue.walkIn.phoneHint')}
        name="phone"
        type="tel"
        inputMode="tel"
        autoComplete="off"
        maxLength={30}
        error={err('phone')}
      />
      {props.priority && props.priority.categories.length > 0 ? (
        <SelectField label={t('queue.walkIn.priority')} name="priority_category" defaultValue="">
          <option value="">{t('queue.walkIn.priorityNone')}</option>
          {props.priority.categories.map((c) => (
            <option key={c} value={c}>
              {c === 'premium' && props.priority?.premiumLabel
                ? props.priority.premiumLabel
                : t(CATEGORY_KEY[c])}
            </option>
          ))}
        </SelectField>
      ) : null}
      <SelectField label={t('queue.walkIn.language')} name="locale" defaultValue={locale}>
        <option value="fr">Français</option>
        <option value="en">English</option>
      </SelectField>
      <FormNotice notice={answeredAt === (props.clearKey ?? 0) ? form.state.notice : null} />
      {added && answeredAt === (props.clearKey ?? 0) && form.state.notice?.tone === 'success' ? (
        <PrintSlip visitId={added} />
      ) : null}
      <SubmitButton
        busy={form.pending}
        label={t('queue.walkIn.submit')}
        busyLabel={t('queue.walkIn.adding')}
      />
    </form>
  );
}
