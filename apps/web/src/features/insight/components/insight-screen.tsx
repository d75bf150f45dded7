import type { InsightResponse } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import { useState } from 'react';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { useAsync } from '../../../lib/use-async';
import { useMediaQuery } from '../../../lib/use-media-query';
import { getInsight, type InsightRequest } from '../api/get-insight';
import {
  RANGE_KINDS,
  type RangeChoice,
  type RangeKind,
  type RangeProblem,
  rangeOf,
  shift,
} from '../lib/insight-range';
// Its own stylesheet, loaded with this chunk (never in the public pages' inlined CSS:
// decision 112); React puts it in the head and holds the first paint until it is there.
import insightCss from './insight.css?url';
import { ChartWidth } from './insight-charts';
import { ClerksPanel } from './insight-clerks';
import { branchLabels, InsightFigures } from './insight-figures';
import { MessagesPanel } from './insight-messages';

export interface BranchOption {
  id: string;
  name: string;
}

const PROBLEM_KEY: Record<RangeProblem, MessageKey> = {
  invalid: 'insight.range.invalid',
  reversed: 'insight.range.reversed',
  tooLong: 'insight.range.tooLong',
};

/**
 * Insight: the organization's visits and bookings over a day, a week, a month or
 * any range of up to a year, by service, counter and branch; each chart with its table; the
 * CSV files of the rows. `today` is the organization's today (its time zone).
 */
export function InsightScreen({
  today,
  branches = [],
}: {
  today: string;
  /** Branches the account may look at: a select appears when there is more than one. */
  branches?: BranchOption[];
}) {
  const { t, locale } = useI18n();
  const [choice, setChoice] = useState<RangeChoice>({
    kind: 'week',
    anchor: today,
    from: today,
    to: today,
  });
  const [serviceId, setServiceId] = useState('');
  const [counterId, setCounterId] = useState('');
  const [branchId, setBranchId] = useState('');
  const [attempt, setAttempt] = useState(0);
  const range = rangeOf(choice);
  const request: InsightRequest | null =
    typeof range === 'string' ? null : { ...range, serviceId, counterId, branchId };
  const state = useAsync(
    (signal) => (request ? getInsight(request, signal) : Promise.resolve(null)),
    [request?.from, request?.to, serviceId, counterId, branchId, attempt],
  );
  // The filters' choices of the last answer stay while the next one loads.
  const [options, setOptions] = useState<InsightResponse['options'] | null>(null);
  const data = state.status === 'success' ? state.data : null;
  if (data && data.options !== options) setOptions(data.options);
  // Several branches: each service and counter says whose it is ("Caisse · Akwa").
  const [branchNames, setBranchNames] = useState<Map<string, string>>(new Map());
  if (data && data.branches.length !== branchNames.size) setBranchNames(branchLabels(data));
  const at = (organizationId: string) =>
    branchNames.size > 1 ? ` · ${branchNames.get(organizationId) ?? ''}` : '';

  const wide = useMediaQuery('(min-width: 760px)');
  const setKind = (kind: RangeKind) =>
    setChoice((c) => {
      const current = rangeOf(c);
      return typeof current === 'string' || kind !== 'custom'
        ? { ...c, kind }
        : { ...c, kind, from: current.from, to: current.to };
    });

  return (
    <section className="insight" aria-labelledby="insight-title">
      <link rel="stylesheet" href={insightCss} precedence="area" />
      <h1 id="insight-title" className="page-title">
        {t('insight.title')}
      </h1>
      <p className="page-lead">{t('insight.lead')}</p>

      <form className="panel insight__controls" onSubmit={(e) => e.preventDefault()}>
        <fieldset className="insight__kinds">
          <legend>{t('insight.range.label')}</legend>
          {RANGE_KINDS.map((kind) => (
            <label key={kind} className={`insight__kind${choice.kind === kind ? ' is-on' : ''}`}>
              <input
                type="radio"
                name="insight-kind"
                value={kind}
                checked={choice.kind === kind}
                onChange={() => setKind(kind)}
              />
              {t(`insight.range.${kind}`)}
            </label>
          ))}
        </fieldset>
        {choice.kind === 'custom' ? (
          <div className="insight__dates">
            <div className="field">
              <label htmlFor="insight-from">{t('insight.range.from')}</label>
              <input
                id="insight-from"
                className="input"
                type="date"
                value={choice.from}
                max={today}
                onChange={(e) => setChoice({ ...choice, from: e.target.value })}
              />
            </div>
            <div className="field">
              <label htmlFor="insight-to">{t('insight.range.to')}</label>
              <input
                id="insight-to"
                className="input"
                type="date"
                value={choice.to}
                onChange={(e) => setChoice({ ...choice, to: e.target.value })}
              />
            </div>
          </div>
        ) : (
          <div className="field">
            <label htmlFor="insight-anchor">{t(`insight.range.anchor.${choice.kind}`)}</label>
            <input
              id="insight-anchor"
              className="input"
              type="date"
              value={choice.anchor}
              onChange={(e) => setChoice({ ...choice, anchor: e.target.value })}
            />
          </div>
        )}
        <div className="insight__steps">
          <button
            type="button"
            className="btn btn--secondary btn--small"
            onClick={() => setChoice(shift(choice, -1))}
          >
            {t('insight.range.previous')}
          </button>
          <button
            type="button"
            className="btn btn--secondary btn--small"
            onClick={() => setChoice(shift(choice, 1))}
          >
            {t('insight.range.next')}
          </button>
        </div>
        {typeof range === 'string' ? (
          <p className="field__error" role="alert">
            {t(PROBLEM_KEY[range])}
          </p>
        ) : null}

        <div className="insight__filters">
          {branches.length > 1 ? (
            <div className="field">
              <label htmlFor="insight-branch">{t('insight.filter.branch')}</label>
              <select
                id="insight-branch"
                className="input"
                value={branchId}
                onChange={(e) => {
                  setBranchId(e.target.value);
                  setServiceId('');
                  setCounterId('');
                }}
              >
                <option value="">{t('insight.filter.allBranches')}</option>
                {branches.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <div className="field">
            <label htmlFor="insight-service">{t('insight.filter.service')}</label>
            <select
              id="insight-service"
              className="input"
              value={serviceId}
              onChange={(e) => setServiceId(e.target.value)}
            >
              <option value="">{t('insight.filter.allServices')}</option>
              {options?.services.map((s) => (
                <option key={s.id} value={s.id}>
                  {localizedText(s.name, s.name_fr, locale)}
                  {at(s.organization_id)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="insight-counter">{t('insight.filter.counter')}</label>
            <select
              id="insight-counter"
              className="input"
              value={counterId}
              onChange={(e) => setCounterId(e.target.value)}
            >
              <option value="">{t('insight.filter.allCounters')}</option>
              {options?.counters.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.retired ? t('insight.filter.retired', { name: c.name }) : c.name}
                  {at(c.organization_id)}
                </option>
              ))}
            </select>
          </div>
        </div>
      </form>

      {request === null ? null : state.status === 'loading' ? (
        <Spinner label={t('common.loading')} />
      ) : state.status === 'error' ? (
        <LoadError
          message={t(errorKey(state.error))}
          retryLabel={t('common.retry')}
          onRetry={() => setAttempt((n) => n + 1)}
        />
      ) : data ? (
        <ChartWidth.Provider value={wide ? 600 : 320}>
          <InsightFigures data={data} request={request} />
          <ClerksPanel data={data} />
          <MessagesPanel data={data} onBudgetSaved={() => setAttempt((n) => n + 1)} />
        </ChartWidth.Provider>
      ) : null}
    </section>
  );
}

function errorKey(error: unknown): MessageKey {
  if (error instanceof ApiError) {
    if (error.code === 'DATE_RANGE_TOO_LONG') return 'insight.range.tooLong';
    if (error.code === 'INVALID_DATE_RANGE') return 'insight.range.reversed';
    if (error.status === 403) return 'error.FORBIDDEN';
  }
  return 'insight.loadFailed';
}
