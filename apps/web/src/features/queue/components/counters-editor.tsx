import type { Counter, QueueTodayResponse } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import { useId, useState } from 'react';
import { InputField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { useFormAction } from '../../../components/form/use-form-action';
import { useI18n } from '../../../i18n/i18n';
import { createCounter, updateCounter } from '../api/queue-api';
import { queueErrorKey } from '../lib/queue-errors';
import { parseCounter } from '../lib/setup-forms';

type Services = QueueTodayResponse['services'];

/** The counters: each one renamed, its services picked, or retired; and a new one added. */
export function CountersEditor(props: {
  services: Services;
  counters: readonly Counter[];
  onChanged: () => Promise<void>;
}) {
  const { t } = useI18n();
  return (
    <section className="panel" aria-labelledby="queue-counters-title">
      <h2 id="queue-counters-title">{t('queueSetup.counters.title')}</h2>
      {props.counters.length === 0 ? (
        <p className="empty-state">{t('queueSetup.counters.none')}</p>
      ) : (
        <ul className="queue-list" data-testid="counter-list">
          {props.counters.map((c) => (
            <li key={c.counter_id}>
              <CounterRow counter={c} services={props.services} onChanged={props.onChanged} />
            </li>
          ))}
        </ul>
      )}
      <h3>{t('queueSetup.counters.add')}</h3>
      <CounterForm services={props.services} onChanged={props.onChanged} />
    </section>
  );
}

interface FormState {
  notice: Notice | null;
}

/** A new counter (no `counter`) or an existing one's name and services. */
function CounterForm(props: {
  services: Services;
  counter?: Counter;
  onChanged: () => Promise<void>;
  onDone?: () => void;
}) {
  const { t, locale } = useI18n();
  const legendId = useId();
  const helpsId = useId();
  const { counter } = props;
  const form = useFormAction<FormState>(
    async ({ element, data }) => {
      const parsed = parseCounter(data);
      if (!parsed.ok) {
        const key =
          parsed.missing === 'name'
            ? 'queueSetup.counters.nameRequired'
            : parsed.missing === 'both'
              ? 'queueSetup.counters.helpsBoth'
              : 'queueSetup.counters.servicesRequired';
        return { notice: { tone: 'error', text: t(key) } };
      }
      try {
        const body = {
          name: parsed.name,
          service_ids: parsed.service_ids,
          help_service_ids: parsed.help_service_ids,
        };
        if (counter) await updateCounter(counter.counter_id, body);
        else await createCounter(body);
        if (!counter) element.reset();
        await props.onChanged();
        props.onDone?.();
        return {
          notice: {
            tone: 'success',
            text: t(counter ? 'queueSetup.counters.saved' : 'queueSetup.counters.added', {
              name: parsed.name,
            }),
          },
        };
      } catch (failure) {
        return { notice: { tone: 'error', text: t(queueErrorKey(failure)) } };
      }
    },
    { notice: null },
  );
  return (
    <form onSubmit={form.onSubmit} noValidate>
      <InputField
        label={t('queueSetup.counters.name')}
        hint={counter ? undefined : t('queueSetup.counters.nameHint')}
        name="name"
        maxLength={40}
        autoComplete="off"
        defaultValue={counter?.name ?? ''}
      />
      <fieldset className="queue-services" aria-labelledby={legendId}>
        <legend id={legendId}>{t('queueSetup.counters.services')}</legend>
        {props.services.map((s) => (
          <label key={s.service_id} className="queue-check">
            <input
              type="checkbox"
              name="service_ids"
              value={s.service_id}
              defaultChecked={
                counter ? counter.service_ids.includes(s.service_id) : props.services.length === 1
              }
            />
            <span>{localizedText(s.name, s.name_fr, locale)}</span>
          </label>
        ))}
      </fieldset>
      {props.services.length > 1 ? (
        <fieldset
          className="queue-services"
          aria-labelledby={helpsId}
          aria-describedby={`${helpsId}-hint`}
        >
          <legend id={helpsId}>{t('queueSetup.counters.helps')}</legend>
          <p id={`${helpsId}-hint`} className="field__hint">
            {t('queueSetup.counters.helpsHint')}
          </p>
          {props.services.map((s) => (
            <label key={s.service_id} className="queue-check">
              <input
                type="checkbox"
                name="help_service_ids"
                value={s.service_id}
                defaultChecked={counter?.help_service_ids.includes(s.service_id) ?? false}
              />
              <span>{localizedText(s.name, s.name_fr, locale)}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <FormNotice notice={form.state.notice} />
      <SubmitButton
        busy={form.pending}
        label={t(counter ? 'queueSetup.counters.save' : 'queueSetup.counters.create')}
        busyLabel={t('queueSetup.saving')}
      />
    </form>
  );
}

function CounterRow(props: {
  counter: Counter;
  services: Services;
  onChanged: () => Promise<void>;
}) {
  const { t, locale } = useI18n();
  const { counter } = props;
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const namesOf = (ids: readonly string[]) =>
    props.services
      .filter((s) => ids.includes(s.service_id))
      .map((s) => localizedText(s.name, s.name_fr, locale))
      .join(', ');
  const helped = namesOf(counter.help_service_ids);

  const retire = async () => {
    setBusy(true);
    try {
      await updateCounter(counter.counter_id, { active: false });
      await props.onChanged();
    } catch (failure) {
      setNotice({ tone: 'error', text: t(queueErrorKey(failure)) });
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <>
      <div className="queue-list__head">
        <p>
          <strong>{counter.name}</strong>
        </p>
        <div className="queue-actions">
          <button
            type="button"
            className="btn btn--secondary btn--small"
            aria-expanded={editing}
            onClick={() => setEditing((e) => !e)}
          >
            {t(editing ? 'queueSetup.counters.cancelEdit' : 'queueSetup.counters.edit')}
            <span className="visually-hidden"> — {counter.name}</span>
          </button>
          {confirming ? (
            <>
              <button
                type="button"
                className="btn btn--secondary btn--small btn--danger-text"
                disabled={busy}
                onClick={() => void retire()}
              >
                {t('queueSetup.counters.retireConfirm', { name: counter.name })}
              </button>
              <button
                type="button"
                className="btn btn--secondary btn--small"
                onClick={() => setConfirming(false)}
              >
                {t('queueSetup.counters.keep')}
              </button>
            </>
          ) : (
            <button
              type="button"
              className="btn btn--secondary btn--small btn--danger-text"
              onClick={() => setConfirming(true)}
            >
              {t('queueSetup.counters.retire')}
              <span className="visually-hidden"> — {counter.name}</span>
            </button>
          )}
        </div>
      </div>
      <p className="queue-list__meta">
        {namesOf(counter.service_ids)}
        {helped ? ` · ${t('queueSetup.counters.helpsList', { services: helped })}` : ''}
      </p>
      <FormNotice notice={notice} />
      {editing ? (
        <CounterForm
          counter={counter}
          services={props.services}
          onChanged={props.onChanged}
          onDone={() => setEditing(false)}
        />
      ) : null}
    </>
  );
}
