import type { Counter, QueueTodayResponse, QueueVisit } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import { useEffect, useId, useState } from 'react';
import { FormNotice, type Notice } from '../../../components/form/form-status';
import { Spinner } from '../../../components/ui/spinner';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { type CounterCommand, counterCommand, transferVisit } from '../api/queue-api';
import { rememberCounter, rememberedCounter } from '../lib/counter-choice';
import { queueErrorKey } from '../lib/queue-errors';
import {
  counterById,
  heldVisit,
  transferTargets,
  waitingFor,
  waitingLine,
} from '../lib/queue-view';
import { useQueueToday } from '../lib/use-queue-today';
import { QueueLine } from './queue-line';
import { VisitNumber, VisitState } from './visit-parts';
import { WalkInForm } from './walk-in-form';

const COUNTER_STATE_KEY = {
  open: 'queue.counter.state.open',
  paused: 'queue.counter.state.paused',
  closed: 'queue.counter.state.closed',
} as const;

/** What each act says once done ("A-042 called"), so the clerk sees it went through. */
const DONE_KEY: Record<CounterCommand | 'transfer', MessageKey> = {
  open: 'queue.done.open',
  pause: 'queue.done.pause',
  close: 'queue.done.close',
  'call-next': 'queue.done.call-next',
  recall: 'queue.done.recall',
  start: 'queue.done.start',
  done: 'queue.done.done',
  'no-show': 'queue.done.no-show',
  transfer: 'queue.done.transfer',
};

/**
 * The counter screen (issue 19 item 3): the clerk picks a counter (remembered on this
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
    rememberCounter(props.organizationId, next);
  };

  const act = async (
    command: CounterCommand | 'transfer',
    run: () => Promise<{ visit: QueueVisit | null }>,
  ) => {
    setBusy(true);
    setNotice(null);
    try {
      const answer = await run();
      if (command === 'call-next' && !answer.visit) {
        // Nobody to call is an answer, not a failure: the server says so with no visit.
        setNotice({ tone: 'error', text: t('queue.error.QUEUE_EMPTY') });
        return;
      }
      // A recall beyond the organization's limit marks the visitor a no-show (server rule).
      const key =
        command === 'recall' && answer.visit?.state === 'no_show'
          ? 'queue.done.recallNoShow'
          : DONE_KEY[command];
      setNotice({ tone: 'success', text: t(key, { number: answer.visit?.number ?? '' }) });
    } catch (failure) {
      setNotice({ tone: 'error', text: t(queueErrorKey(failure)) });
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

      <FormNotice notice={notice} />

      {counter ? (
        <HeldPanel
          counter={counter}
          visit={held}
          today={today}
          waiting={waitingFor(line, counter)}
          busy={busy}
          onCommand={command}
          onTransfer={(serviceId) =>
            void act('transfer', () => transferVisit(counter.counter_id, serviceId))
          }
        />
      ) : null}

      <section className="panel" aria-labelledby={`${pickId}-line`}>
        <h2 id={`${pickId}-line`}>{t('queue.line.title', { n: line.length })}</h2>
        <QueueLine visits={line} timeZone={today.organization.time_zone} counter={counter} />
      </section>

      <section className="panel" aria-labelledby={`${pickId}-walkin`}>
        <h2 id={`${pickId}-walkin`}>{t('queue.walkIn.title')}</h2>
        <WalkInForm
          services={today.services}
          preferred={counter?.service_ids ?? []}
          onAdded={() => reload()}
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

/** The visit the counter holds, big, with what can be done to it; or Call next (exported for its test). */
export function HeldPanel(props: {
  counter: Counter;
  visit: QueueVisit | null;
  today: QueueTodayResponse;
  waiting: number;
  busy: boolean;
  onCommand: (c: CounterCommand) => void;
  onTransfer: (serviceId: string) => void;
}) {
  const { t, locale } = useI18n();
  const { counter, visit, today, busy } = props;
  const transferId = useId();
  const [target, setTarget] = useState('');
  const open = counter.state === 'open';
  const serving = visit?.state === 'serving';
  const called = visit?.state === 'called';
  const callNext = (
    <button
      type="button"
      className="btn btn--primary btn--lg queue-held__call"
      // Call next while serving finishes the visit first (the server's rule); while a
      // called visitor is still expected, the clerk must Start, Recall or mark them first.
      disabled={busy || !open || called}
      onClick={() => props.onCommand('call-next')}
    >
      {t('queue.act.callNext')}
    </button>
  );

  if (!visit) {
    return (
      <section className="panel queue-held queue-held--idle" aria-label={t('queue.held.label')}>
        <p className="queue-held__idle">
          {open ? t('queue.held.idle', { n: props.waiting }) : t('queue.held.notOpen')}
        </p>
        {callNext}
      </section>
    );
  }

  const targets = transferTargets(today.services, visit);
  const settings = today.settings;
  return (
    <section
      className={`panel queue-held queue-held--${visit.state}`}
      aria-label={t('queue.held.label')}
      data-testid="held-visit"
    >
      <div className="queue-held__top">
        <VisitNumber number={visit.number} big />
        <div className="queue-held__who">
          <p className="queue-held__name">{visit.customer_name}</p>
          <p className="queue-held__service">
            {localizedText(visit.service_name, visit.service_name_fr, locale)}
          </p>
          <p>
            <VisitState state={visit.state} />
            {visit.recalls > 0 ? (
              <span className="queue-held__recalls">
                {' '}
                {t('queue.held.recalls', { n: visit.recalls, max: settings.max_recalls })}
              </span>
            ) : null}
          </p>
        </div>
      </div>
      <div className="queue-held__acts">
        {called ? (
          <>
            <button
              type="button"
              className="btn btn--primary btn--lg"
              disabled={busy}
              onClick={() => props.onCommand('start')}
            >
              {t('queue.act.start')}
            </button>
            <button
              type="button"
              className="btn btn--secondary"
              disabled={busy}
              onClick={() => props.onCommand('recall')}
            >
              {t('queue.act.recall')}
            </button>
            <button
              type="button"
              className="btn btn--secondary btn--danger-text"
              disabled={busy}
              onClick={() => props.onCommand('no-show')}
            >
              {t('queue.act.noShow')}
            </button>
          </>
        ) : null}
        {serving ? (
          <>
            <button
              type="button"
              className="btn btn--primary btn--lg"
              disabled={busy}
              onClick={() => props.onCommand('done')}
            >
              {t('queue.act.done')}
            </button>
            {callNext}
          </>
        ) : null}
      </div>
      {targets.length > 0 ? (
        <form
          className="queue-transfer"
          onSubmit={(event) => {
            event.preventDefault();
            if (target) props.onTransfer(target);
          }}
        >
          <label htmlFor={transferId}>{t('queue.act.transferTo')}</label>
          <div className="queue-transfer__row">
            <select
              id={transferId}
              className="input"
              value={target}
              onChange={(event) => setTarget(event.target.value)}
              required
            >
              <option value="">{t('queue.act.transferChoose')}</option>
              {targets.map((s) => (
                <option key={s.service_id} value={s.service_id}>
                  {localizedText(s.name, s.name_fr, locale)}
                </option>
              ))}
            </select>
            <button type="submit" className="btn btn--secondary" disabled={busy || !target}>
              {t('queue.act.transfer')}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
