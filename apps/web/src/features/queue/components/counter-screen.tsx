import type { Counter, QueueTodayResponse, QueueVisit, Undoable } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import { useEffect, useId, useState } from 'react';
import { FormNotice, type Notice } from '../../../components/form/form-status';
import { Spinner } from '../../../components/ui/spinner';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import {
  type CounterCommand,
  callVisit,
  clearSelfJoins,
  counterCommand,
  putBackInLine,
  transferVisit,
  undoLast,
} from '../api/queue-api';
import { rememberCounter, rememberedCounter } from '../lib/counter-choice';
import { queueErrorKey, queueNoticeTone } from '../lib/queue-errors';
import {
  counterById,
  counterLine,
  heldVisit,
  racedFor,
  todaysNoShows,
  waitingFor,
  waitingLine,
} from '../lib/queue-view';
import { useQueueToday } from '../lib/use-queue-today';
import { ClearSelfJoins } from './clear-self-joins';
import { HeldPanel } from './held-panel';
import { NoShowList } from './no-show-list';
import { QueueLine } from './queue-line';
import { UndoButton } from './undo-button';
import { WalkInForm } from './walk-in-form';

export { HeldPanel };

const COUNTER_STATE_KEY = {
  open: 'queue.counter.state.open',
  paused: 'queue.counter.state.paused',
  closed: 'queue.counter.state.closed',
} as const;

type Act = CounterCommand | 'transfer' | 'transfer-counter' | 'call-visit' | 'undo' | 'back';

/** What each act says once done ("A-042 called"), so the clerk sees it went through. */
const DONE_KEY: Record<Act, MessageKey> = {
  open: 'queue.done.open',
  pause: 'queue.done.pause',
  close: 'queue.done.close',
  'call-next': 'queue.done.call-next',
  recall: 'queue.done.recall',
  start: 'queue.done.start',
  done: 'queue.done.done',
  'no-show': 'queue.done.no-show',
  transfer: 'queue.done.transfer',
  'transfer-counter': 'queue.done.transferCounter',
  'call-visit': 'queue.done.call-visit',
  undo: 'queue.done.undo',
  back: 'queue.done.back',
};

/**
 * The counter screen: the clerk picks a counter (remembered on this
 * device), opens it, calls the next person and serves them; the line and a walk-in form
 * below. The queue is read again every few seconds and after each act.
 */
export function CounterScreen(props: { organizationId: string; setupHref: string | null }) {
  const { t, locale, intlLocale } = useI18n();
  const { today, error, reload } = useQueueToday();
  const [counterId, setCounterId] = useState<string | null>(() =>
    rememberedCounter(props.organizationId),
  );
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [undo, setUndo] = useState<Undoable | null>(null);
  // Counts the clerk's acts: a walk-in's "has number C-002" is cleared by the next one.
  const [acts, setActs] = useState(0);
  const pickId = useId();

  const counter = today ? counterById(today, counterId) : null;
  // A remembered counter that was retired meanwhile is forgotten, so the picker shows again.
  useEffect(() => {
    if (today && counterId && !counter) {
      setCounterId(null);
      rememberCounter(props.organizationId, null);
    }
  }, [today, counterId, counter, props.organizationId]);

  const pick = (id: string) => {
    const next = id || null;
    setCounterId(next);
    setNotice(null);
    setUndo(null);
    setActs((n) => n + 1);
    rememberCounter(props.organizationId, next);
  };

  const act = async (
    command: Act,
    run: () => Promise<{ visit: QueueVisit | null; undo?: Undoable | null | undefined }>,
  ) => {
    // Who this screen showed first for this counter when the clerk pressed.
    const expected =
      today && counter ? counterLine(waitingLine(today.visits), counter).mine[0] : null;
    setBusy(true);
    setNotice(null);
    setUndo(null);
    setActs((n) => n + 1);
    try {
      const answer = await run();
      if (command === 'call-next' && !answer.visit) {
        // Nobody to call is an answer, not a failure: said neutrally.
        setNotice({ tone: 'info', text: t('queue.error.QUEUE_EMPTY') });
        return;
      }
      // Another counter was quicker for the one this screen showed first: a normal state,
      // said beside who was called here instead.
      const raced = racedFor(command, expected, answer.visit);
      // A recall beyond the organization's limit marks the visitor a no-show (server rule).
      const key =
        command === 'recall' && answer.visit?.state === 'no_show'
          ? 'queue.done.recallNoShow'
          : DONE_KEY[command];
      const done = t(key, { number: answer.visit?.number ?? '' });
      setNotice({
        tone: 'success',
        text: raced ? (
          <>
            <span>{done}</span> <span>{t('queue.done.raced', raced)}</span>
          </>
        ) : (
          done
        ),
      });
      setUndo(answer.undo ?? null);
    } catch (failure) {
      setNotice({ tone: queueNoticeTone(failure), text: t(queueErrorKey(failure)) });
    } finally {
      await reload();
      setBusy(false);
    }
  };
  // A flood from the poster removed in one act (decision 125); the server says how many.
  const clear = async (withinMinutes: number | null) => {
    setBusy(true);
    setNotice(null);
    setUndo(null);
    try {
      const body = withinMinutes === null ? {} : { within_minutes: withinMinutes };
      const { cleared } = await clearSelfJoins(body);
      setNotice({ tone: 'success', text: t('queue.clear.done', { n: cleared }) });
    } catch (failure) {
      setNotice({ tone: queueNoticeTone(failure), text: t(queueErrorKey(failure)) });
    } finally {
      await reload();
      setBusy(false);
    }
  };
  const command = (c: CounterCommand) => {
    if (!counter) return;
    void act(c, () => counterCommand(counter.counter_id, c));
  };

  if (!today) {
    return (
      <div className="queue">
        <h1 className="page-title">{t('queue.title')}</h1>
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

  const serviceName = (s: QueueTodayResponse['services'][number]) =>
    localizedText(s.name, s.name_fr, locale);
  const line = waitingLine(today.visits);
  const held = heldVisit(today, counter);
  const noShows = todaysNoShows(today.visits);

  return (
    <div className="queue">
      <header className="queue__head">
        <h1 className="page-title">{t('queue.title')}</h1>
        <p className="page-lead">
          {today.organization.name} · {formatDate(today.date, intlLocale, LONG_DATE)}
        </p>
      </header>

      {error ? (
        <p className="alert alert--warning" role="status">
          {t('queue.stale')}
        </p>
      ) : null}

      <section className="panel queue-counter">
        {today.counters.length === 0 ? (
          <p className="empty-state">
            {t('queue.counter.none')}{' '}
            {props.setupHref ? <a href={props.setupHref}>{t('queue.counter.setupLink')}</a> : null}
          </p>
        ) : (
          <div className="queue-counter__row">
            <div className="field queue-counter__pick">
              <label htmlFor={pickId}>{t('queue.counter.pick')}</label>
              <select
                id={pickId}
                className="input"
                value={counter?.counter_id ?? ''}
                onChange={(event) => pick(event.target.value)}
              >
                <option value="">{t('queue.counter.choose')}</option>
                {today.counters.map((c) => (
                  <option key={c.counter_id} value={c.counter_id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </div>
            {counter ? (
              <CounterState
                counter={counter}
                busy={busy}
                hasVisit={held !== null}
                onCommand={command}
              />
            ) : null}
          </div>
        )}
        {counter ? (
          <p className="queue-counter__serves">
            {t('queue.counter.serves', {
              services: today.services
                .filter((s) => counter.service_ids.includes(s.service_id))
                .map(serviceName)
                .join(', '),
            })}
          </p>
        ) : null}
      </section>

      {counter ? (
        <HeldPanel
          counter={counter}
          visit={held}
          today={today}
          waiting={waitingFor(line, counter)}
          busy={busy}
          onCommand={command}
          onTransfer={(to) =>
            void act(to.counter_id ? 'transfer-counter' : 'transfer', () =>
              transferVisit(counter.counter_id, to),
            )
          }
          line={line}
          onCallVisit={(visitId, reason) =>
            void act('call-visit', () =>
              callVisit(counter.counter_id, { visit_id: visitId, reason }),
            )
          }
        />
      ) : null}

      {/* Below the buttons, so that a notice appearing never moves them under a finger. */}
      <FormNotice notice={notice}>
        {undo && counter ? (
          <UndoButton
            key={undo.until}
            undo={undo}
            busy={busy}
            onUndo={() => void act('undo', () => undoLast(counter.counter_id))}
            onExpired={() => setUndo(null)}
          />
        ) : null}
      </FormNotice>

      <section className="panel" aria-labelledby={`${pickId}-line`}>
        <h2 id={`${pickId}-line`}>{t('queue.line.title', { n: line.length })}</h2>
        <QueueLine
          visits={line}
          timeZone={today.organization.time_zone}
          counter={counter}
          premiumLabel={today.settings.premium_label}
          counters={today.counters}
        />
        <ClearSelfJoins
          visits={line}
          serverTime={today.server_time}
          busy={busy}
          onClear={(within) => void clear(within)}
        />
      </section>

      {noShows.length > 0 ? (
        <section className="panel" aria-labelledby={`${pickId}-noshows`}>
          <h2 id={`${pickId}-noshows`}>{t('queue.noShows.title', { n: noShows.length })}</h2>
          <NoShowList
            visits={noShows}
            timeZone={today.organization.time_zone}
            busy={busy}
            onPutBack={(v) =>
              void act('back', async () => ({ visit: (await putBackInLine(v.visit_id)).visit }))
            }
          />
        </section>
      ) : null}

      <section className="panel" aria-labelledby={`${pickId}-walkin`}>
        <h2 id={`${pickId}-walkin`}>{t('queue.walkIn.title')}</h2>
        <WalkInForm
          services={today.services}
          preferred={counter?.service_ids ?? []}
          onAdded={() => reload()}
          clearKey={acts}
          priority={{
            categories: today.settings.priority_categories,
            premiumLabel: today.settings.premium_label,
          }}
        />
      </section>
    </div>
  );
}

/** The counter's state and the buttons that change it. */
function CounterState(props: {
  counter: Counter;
  busy: boolean;
  hasVisit: boolean;
  onCommand: (c: CounterCommand) => void;
}) {
  const { t } = useI18n();
  const { counter, busy } = props;
  return (
    <div className="queue-counter__state">
      <span className={`queue-badge queue-badge--${counter.state}`} data-testid="counter-state">
        {t(COUNTER_STATE_KEY[counter.state])}
      </span>
      <div className="queue-counter__buttons">
        {counter.state !== 'open' ? (
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy}
            onClick={() => props.onCommand('open')}
          >
            {t('queue.counter.open')}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn--secondary"
            disabled={busy}
            onClick={() => props.onCommand('pause')}
          >
            {t('queue.counter.pause')}
          </button>
        )}
        {counter.state !== 'closed' ? (
          <button
            type="button"
            className="btn btn--secondary"
            disabled={busy}
            onClick={() => props.onCommand('close')}
          >
            {t('queue.counter.close')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
