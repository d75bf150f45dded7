import type {
  CallReason,
  Counter,
  QueueTodayResponse,
  QueueVisit,
  TransferRequest,
} from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import { useEffect, useId, useState } from 'react';
import { useI18n } from '../../../i18n/i18n';
import type { CounterCommand } from '../api/queue-api';
import { noShowGate, transferTargets } from '../lib/queue-view';
import { CallOutOfTurn } from './call-out-of-turn';
import { VisitNumber, VisitState } from './visit-parts';

/**
 * The visit the counter holds, big, with what can be done to it; or Call next (decision
 * 118). The layout never puts a destructive act where the main one was: one main button
 * keeps one place (`data-slot="main"`): Call next, then Start once called, then Done once
 * serving — so a second tap on Call next starts, never removes. Recall and the rest sit on
 * the row below; No-show stands alone at the bottom, apart, and only once the visitor was
 * recalled as many times as the organization set (the server refuses it before, too). Every
 * button is disabled while a request is in flight, and the main one for MAIN_SETTLE_MS after
 * it changed: a second tap 1.2 s after Call next (the screen seemed slow) neither starts the
 * one just called nor, after Done, calls the next one.
 */
export const MAIN_SETTLE_MS = 1500;

export function HeldPanel(props: {
  counter: Counter;
  visit: QueueVisit | null;
  today: QueueTodayResponse;
  waiting: number;
  busy: boolean;
  onCommand: (c: CounterCommand) => void;
  onTransfer: (to: TransferRequest) => void;
  /** The branch's waiting line, for a call out of turn (decision 139). */
  line: readonly QueueVisit[];
  onCallVisit: (visitId: string, reason: CallReason) => void;
}) {
  const { t, locale } = useI18n();
  const { counter, visit, today, busy } = props;
  const transferId = useId();
  const noShowNote = useId();
  const [target, setTarget] = useState('');
  const mainOf = `${visit?.visit_id ?? ''}:${visit?.state ?? 'idle'}`;
  // The main act settles from the render that shows a new one, not from an effect after it:
  // an effect runs after the paint, and a second tap on a slow phone (or a loaded machine)
  // landed in between, on a Start not yet disabled, and started the visitor just called.
  const [settle, setSettle] = useState({ of: mainOf, done: true });
  const settling = settle.of !== mainOf || !settle.done;
  // biome-ignore lint/correctness/useExhaustiveDependencies: restarts when the main act changes.
  useEffect(() => {
    if (settle.of === mainOf && settle.done) return;
    setSettle({ of: mainOf, done: false });
    const timer = setTimeout(() => setSettle({ of: mainOf, done: true }), MAIN_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [mainOf]);
  // A destination chosen for the last visitor is never offered for the next one.
  const visitId = visit?.visit_id ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: resets when the visitor changes.
  useEffect(() => setTarget(''), [visitId]);
  const open = counter.state === 'open';
  const jump = (
    <CallOutOfTurn
      waiting={props.line}
      busy={busy}
      disabled={!open}
      serving={visit?.state === 'serving'}
      onCall={props.onCallVisit}
    />
  );
  const serving = visit?.state === 'serving';
  const called = visit?.state === 'called';
  const main = (command: CounterCommand, label: string, disabled: boolean) => (
    <div className="queue-held__main">
      <button
        type="button"
        className="btn btn--primary btn--lg queue-held__call"
        data-slot="main"
        disabled={busy || settling || disabled}
        onClick={() => props.onCommand(command)}
      >
        {label}
      </button>
    </div>
  );

  if (!visit) {
    return (
      <section className="panel queue-held queue-held--idle" aria-label={t('queue.held.label')}>
        {main('call-next', t('queue.act.callNext'), !open)}
        <p className="queue-held__idle">
          {open ? t('queue.held.idle', { n: props.waiting }) : t('queue.held.notOpen')}
        </p>
        {open ? jump : null}
      </section>
    );
  }

  const targets = transferTargets(today.services, visit);
  // Another counter that stands (open or paused) may be named (decision 139).
  const counters = today.counters.filter(
    (c) => c.counter_id !== counter.counter_id && c.state !== 'closed',
  );
  const [kind, id] = target.split(':');
  const settings = today.settings;
  const gate = noShowGate(visit, settings.max_recalls);
  return (
    <section
      className={`panel queue-held queue-held--${visit.state}`}
      aria-label={t('queue.held.label')}
      data-testid="held-visit"
    >
      {called ? main('start', t('queue.act.start'), false) : null}
      {serving ? main('done', t('queue.act.done'), false) : null}
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
          <button
            type="button"
            className="btn btn--secondary"
            disabled={busy}
            onClick={() => props.onCommand('recall')}
          >
            {t('queue.act.recall')}
          </button>
        ) : null}
        {serving ? (
          // Call next while serving finishes this visit first (the server's rule).
          <button
            type="button"
            className="btn btn--secondary"
            disabled={busy || !open}
            onClick={() => props.onCommand('call-next')}
          >
            {t('queue.act.callNext')}
          </button>
        ) : null}
      </div>
      {targets.length > 0 || counters.length > 0 ? (
        <form
          className="queue-transfer"
          onSubmit={(event) => {
            event.preventDefault();
            if (kind === 'counter' && id) props.onTransfer({ counter_id: id });
            else if (kind === 'service' && id) props.onTransfer({ service_id: id });
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
              {targets.length > 0 ? (
                <optgroup label={t('queue.act.transferServices')}>
                  {targets.map((s) => (
                    <option key={s.service_id} value={`service:${s.service_id}`}>
                      {localizedText(s.name, s.name_fr, locale)}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              {counters.length > 0 ? (
                <optgroup label={t('queue.act.transferCounters')}>
                  {counters.map((c) => (
                    <option key={c.counter_id} value={`counter:${c.counter_id}`}>
                      {c.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
            <button type="submit" className="btn btn--secondary" disabled={busy || !target}>
              {t('queue.act.transfer')}
            </button>
          </div>
        </form>
      ) : null}
      {serving && open ? jump : null}
      {called ? (
        <div className="queue-held__danger">
          <p id={noShowNote} className="queue-held__note" data-testid="no-show-note">
            {gate.allowed
              ? t('queue.held.noShowHint')
              : t('queue.held.noShowAfter', { max: settings.max_recalls, left: gate.left })}
          </p>
          <button
            type="button"
            className="btn btn--secondary btn--danger-text"
            data-slot="danger"
            aria-describedby={noShowNote}
            disabled={busy || !gate.allowed}
            onClick={() => props.onCommand('no-show')}
          >
            {t('queue.act.noShow')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
