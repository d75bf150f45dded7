import type { QueueSettings, QueueTodayResponse } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import { useId, useState } from 'react';
import { InputField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { saveQueueSettings, setServiceLetter } from '../api/queue-api';
import { queueErrorKey } from '../lib/queue-errors';
import { parseSettings, TRANSFER_PLACES } from '../lib/setup-forms';
import { useQueueToday } from '../lib/use-queue-today';
import { CountersEditor } from './counters-editor';
import { FairOrderEditor } from './fair-order-editor';
import { BoardsEditor, KiosksEditor } from './hall-links-editor';
import { PosterButton } from './poster-button';
import { SmsJoinEditor } from './sms-join-editor';

/** The setup reads the queue once, and again after each change (no need to poll fast). */
const SETUP_POLL_MS = 60_000;

/**
 * The queue's setup (admins): the rules (grace, SMS position, recalls, join page), the
 * counters, the services' letters, the board links and the poster for the door.
 */
export function QueueSetup(props: { organizationId: string; counterHref: string }) {
  const { t } = useI18n();
  const { today, error, reload } = useQueueToday(SETUP_POLL_MS);
  if (!today) {
    return (
      <div className="queue">
        <h1 className="page-title">{t('queueSetup.title')}</h1>
        {error ? (
          <div role="alert" className="alert alert--error">
            <p>{t(queueErrorKey(error))}</p>
            <button type="button" className="btn btn--secondary" onClick={() => void reload()}>
              {t('common.retry')}
            </button>
          </div>
        ) : (
          <Spinner label={t('common.loading')} />
        )}
      </div>
    );
  }
  return (
    <div className="queue">
      <header className="queue__head">
        <h1 className="page-title">{t('queueSetup.title')}</h1>
        <p className="page-lead">
          {t('queueSetup.lead')} <a href={props.counterHref}>{t('queueSetup.toCounter')}</a>
        </p>
      </header>
      <SettingsForm settings={today.settings} onSaved={reload} />
      <FairOrderEditor settings={today.settings} onSaved={reload} />
      <CountersEditor services={today.services} counters={today.counters} onChanged={reload} />
      <LettersEditor services={today.services} onChanged={reload} />
      <BoardsEditor />
      <KiosksEditor />
      <SmsJoinEditor />
      <section className="panel" aria-labelledby="queue-poster-title">
        <h2 id="queue-poster-title">{t('queueSetup.poster.title')}</h2>
        <p>{t('queueSetup.poster.body')}</p>
        {today.settings.join_enabled ? null : (
          <p className="alert alert--warning">{t('queueSetup.poster.joinOff')}</p>
        )}
        <PosterButton
          organizationId={props.organizationId}
          organizationName={today.organization.name}
        />
      </section>
    </div>
  );
}

/** How each choice of a transfer's place reads in Queue setup (decision 118). */
const TRANSFER_PLACE_KEY = {
  arrival: 'queueSetup.settings.transferArrival',
  front: 'queueSetup.settings.transferFront',
} as const;

interface SettingsState {
  notice: Notice | null;
  invalid: boolean;
}

function SettingsForm(props: { settings: QueueSettings; onSaved: () => Promise<void> }) {
  const { t } = useI18n();
  const { settings } = props;
  const form = useFormAction<SettingsState>(
    async ({ data }) => {
      const parsed = parseSettings(data);
      if (!parsed) {
        return {
          notice: { tone: 'error', text: t('queue.error.INVALID_QUEUE_SETTINGS') },
          invalid: true,
        };
      }
      try {
        await saveQueueSettings(parsed);
        await props.onSaved();
        return {
          notice: { tone: 'success', text: t('queueSetup.settings.saved') },
          invalid: false,
        };
      } catch (failure) {
        return { notice: { tone: 'error', text: t(queueErrorKey(failure)) }, invalid: false };
      }
    },
    { notice: null, invalid: false },
  );
  const number = (
    name: 'grace_early_minutes' | 'grace_late_minutes' | 'notify_position' | 'max_recalls',
    label: string,
    min: number,
    max: number,
    hint?: string,
  ) => (
    <InputField
      label={label}
      hint={hint}
      name={name}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      step={1}
      required
      defaultValue={String(settings[name])}
    />
  );
  return (
    <section className="panel" aria-labelledby="queue-settings-title">
      <h2 id="queue-settings-title">{t('queueSetup.settings.title')}</h2>
      <form onSubmit={form.onSubmit}>
        <div className="queue-setup__grid">
          {number(
            'grace_early_minutes',
            t('queueSetup.settings.graceEarly'),
            0,
            240,
            t('queueSetup.settings.graceEarlyHint'),
          )}
          {number(
            'grace_late_minutes',
            t('queueSetup.settings.graceLate'),
            0,
            120,
            t('queueSetup.settings.graceLateHint'),
          )}
          {number(
            'notify_position',
            t('queueSetup.settings.notify'),
            1,
            20,
            t('queueSetup.settings.notifyHint'),
          )}
          {number(
            'max_recalls',
            t('queueSetup.settings.recalls'),
            0,
            5,
            t('queueSetup.settings.recallsHint'),
          )}
        </div>
        <label className="queue-check">
          <input type="checkbox" name="join_enabled" defaultChecked={settings.join_enabled} />
          <span>{t('queueSetup.settings.join')}</span>
        </label>
        <label className="queue-check">
          <input type="checkbox" name="join_code" defaultChecked={settings.join_code} />
          <span>{t('queueSetup.settings.joinCode')}</span>
        </label>
        <fieldset className="queue-setup__choice" data-testid="transfer-place">
          <legend>{t('queueSetup.settings.transferPlace')}</legend>
          {TRANSFER_PLACES.map((place) => (
            <label key={place} className="queue-check">
              <input
                type="radio"
                name="transfer_place"
                value={place}
                defaultChecked={settings.transfer_place === place}
              />
              <span>{t(TRANSFER_PLACE_KEY[place])}</span>
            </label>
          ))}
        </fieldset>
        <FormNotice notice={form.state.notice} />
        <SubmitButton
          busy={form.pending}
          label={t('queueSetup.settings.save')}
          busyLabel={t('queueSetup.saving')}
        />
      </form>
    </section>
  );
}

/**
 * Each service's letter on the numbers ("A-042"); optional: a service without one shows the
 * letter it will be given (the server's plan: by creation order, the first free one).
 */
export function LettersEditor(props: {
  services: QueueTodayResponse['services'];
  onChanged: () => Promise<void>;
}) {
  const { t, locale } = useI18n();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const baseId = useId();
  if (props.services.length === 0) return null;
  return (
    <section className="panel" aria-labelledby={`${baseId}-title`}>
      <h2 id={`${baseId}-title`}>{t('queueSetup.letters.title')}</h2>
      <p className="hint">{t('queueSetup.letters.body')}</p>
      <ul className="queue-list">
        {props.services.map((s) => (
          <li key={s.service_id}>
            <form
              className="queue-letter"
              onSubmit={(event) => {
                event.preventDefault();
                const letter = formText(
                  new FormData(event.currentTarget),
                  'letter',
                  true,
                ).toUpperCase();
                if (!/^[A-Z]$/.test(letter)) {
                  setNotice({ tone: 'error', text: t('queueSetup.letters.invalid') });
                  return;
                }
                setBusy(true);
                setNotice(null);
                setServiceLetter(s.service_id, letter)
                  .then(async () => {
                    await props.onChanged();
                    setNotice({ tone: 'success', text: t('queueSetup.letters.saved', { letter }) });
                  })
                  .catch((failure: unknown) =>
                    setNotice({ tone: 'error', text: t(queueErrorKey(failure)) }),
                  )
                  .finally(() => setBusy(false));
              }}
            >
              <InputField
                label={localizedText(s.name, s.name_fr, locale)}
                name="letter"
                maxLength={1}
                autoCapitalize="characters"
                autoComplete="off"
                defaultValue={s.letter ?? ''}
                placeholder={s.planned_letter ?? ''}
                hint={
                  !s.letter && s.planned_letter
                    ? t('queueSetup.letters.planned', { letter: s.planned_letter })
                    : undefined
                }
              />
              <button type="submit" className="btn btn--secondary" disabled={busy}>
                {t('queueSetup.letters.save')}
              </button>
            </form>
          </li>
        ))}
      </ul>
      <FormNotice notice={notice} />
    </section>
  );
}
