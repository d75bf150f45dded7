import type { InsightCounts, InsightResponse } from '@qless/contract';
import { addDays, localizedText } from '@qless/contract/core';
import { useMemo, useState } from 'react';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/dates';
import { useAsync } from '../../../lib/use-async';
import { useMediaQuery } from '../../../lib/use-media-query';
import { getInsight, type InsightRequest, insightExportHref } from '../api/get-insight';
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
import { BarChart, ChartFigure, ChartWidth, HeatMap, TrendChart } from './insight-charts';

export interface BranchOption {
  id: string;
  name: string;
}

const SHORT_DATE = { day: 'numeric', month: 'short' } as const;
/** Comments shown at once; the rest (up to the answer's 50) one tap away. */
const COMMENTS_SHOWN = 5;
const FULL_DATE = { day: 'numeric', month: 'long', year: 'numeric' } as const;
/** A Monday (1 January 2024), to name the weekdays in the reader's language. */
const A_MONDAY = '2024-01-01';

const PROBLEM_KEY: Record<RangeProblem, MessageKey> = {
  invalid: 'insight.range.invalid',
  reversed: 'insight.range.reversed',
  tooLong: 'insight.range.tooLong',
};

/**
 * Insight (issue 20): the organization's visits and bookings over a day, a week, a month or
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

interface Formats {
  number: Intl.NumberFormat;
  decimal: Intl.NumberFormat;
  percent: Intl.NumberFormat;
  minutes: (m: number | null) => string;
  count: (n: number | null) => string;
}

/** Numbers, percentages and minutes as the reader's language writes them. */
function useFormats(): Formats {
  const { t, intlLocale } = useI18n();
  const number = useMemo(() => new Intl.NumberFormat(intlLocale), [intlLocale]);
  const decimal = useMemo(
    () => new Intl.NumberFormat(intlLocale, { maximumFractionDigits: 1 }),
    [intlLocale],
  );
  const percent = useMemo(
    () => new Intl.NumberFormat(intlLocale, { style: 'percent', maximumFractionDigits: 1 }),
    [intlLocale],
  );
  const minutes = (m: number | null) =>
    m === null ? t('insight.none') : t('insight.minutes', { n: decimal.format(m) });
  const count = (n: number | null) => (n === null ? t('insight.none') : number.format(n));
  return { number, decimal, percent, minutes, count };
}

/** Each covered branch's short name ("Akwa"), or its full one when it has none. */
function branchLabels(data: Pick<InsightResponse, 'branches'>): Map<string, string> {
  return new Map(data.branches.map((b) => [b.id, b.branch_name ?? b.name]));
}

export function InsightFigures({
  data,
  request,
}: {
  data: InsightResponse;
  request: InsightRequest;
}) {
  const { t, intlLocale, locale, zone } = useI18n();
  const format = useFormats();
  const { totals } = data;
  const { number, percent, minutes, count } = format;
  const zones = [...new Set(data.branches.map((b) => b.time_zone))];
  const day = (d: string, parts: typeof SHORT_DATE | typeof FULL_DATE = SHORT_DATE) =>
    formatDate(d, intlLocale, parts);
  const rangeText =
    data.range.from === data.range.to
      ? day(data.range.from, FULL_DATE)
      : t('insight.rangeShown', {
          from: day(data.range.from, FULL_DATE),
          to: day(data.range.to, FULL_DATE),
        });
  const weekdays = Array.from({ length: 7 }, (_, i) =>
    formatDate(addDays(A_MONDAY, i), intlLocale, { weekday: 'short' }),
  );
  const branchNames = branchLabels(data);
  const at = (organizationId: string) =>
    branchNames.size > 1 ? ` · ${branchNames.get(organizationId) ?? ''}` : '';
  const serviceName = (s: { name: string; name_fr: string | null; organization_id: string }) =>
    `${localizedText(s.name, s.name_fr, locale)}${at(s.organization_id)}`;

  const counts: { key: keyof InsightCounts; label: MessageKey }[] = [
    { key: 'visits', label: 'insight.count.visits' },
    { key: 'booked', label: 'insight.count.booked' },
    { key: 'walk_in', label: 'insight.count.walkIn' },
    { key: 'served', label: 'insight.count.served' },
    { key: 'no_show_visits', label: 'insight.count.noShowVisits' },
    { key: 'no_show_bookings', label: 'insight.count.noShowBookings' },
    { key: 'cancelled_bookings', label: 'insight.count.cancelled' },
    { key: 'left', label: 'insight.count.left' },
  ];
  const countBars = counts
    .filter((c) => totals[c.key] !== null)
    .map((c) => ({
      key: c.key,
      label: t(c.label),
      value: Number(totals[c.key] ?? 0),
      shown: number.format(Number(totals[c.key] ?? 0)),
    }));

  const heatCells = new Map(data.heat_map.map((c) => [`${c.weekday}:${c.hour}`, c.arrivals]));
  const busyHours = data.heat_map.map((c) => c.hour);
  const firstHour = busyHours.length ? Math.min(...busyHours) : 7;
  const lastHour = busyHours.length ? Math.max(...busyHours) : 17;
  const hours = Array.from({ length: lastHour - firstHour + 1 }, (_, i) => firstHour + i);
  const busiest = data.heat_map.reduce<(typeof data.heat_map)[number] | null>(
    (best, c) => (best === null || c.arrivals > best.arrivals ? c : best),
    null,
  );
  const peakDay = data.daily.reduce<(typeof data.daily)[number] | null>(
    (best, d) => (best === null || d.visits > best.visits ? d : best),
    null,
  );
  const feedback = data.feedback;

  return (
    <div className="insight__figures">
      <p className="hint" aria-live="polite">
        {rangeText}
        {zones.length === 1 && zones[0] ? ` · ${t('insight.zone', { zone: zone(zones[0]) })}` : ''}
      </p>

      <section className="panel" aria-labelledby="insight-summary">
        <h2 id="insight-summary">{t('insight.summary.title')}</h2>
        <dl className="insight__stats">
          <Stat label={t('insight.count.visits')} value={number.format(totals.visits)} />
          <Stat label={t('insight.count.served')} value={number.format(totals.served)} />
          <Stat
            label={t('insight.noShowRate')}
            value={
              totals.no_show_rate === null ? t('insight.none') : percent.format(totals.no_show_rate)
            }
          />
          <Stat label={t('insight.wait.median')} value={minutes(totals.wait_minutes.median)} />
          <Stat label={t('insight.wait.p90')} value={minutes(totals.wait_minutes.p90)} />
          <Stat
            label={t('insight.service.median')}
            value={minutes(totals.service_minutes.median)}
          />
          <Stat label={t('insight.service.p90')} value={minutes(totals.service_minutes.p90)} />
          <Stat
            label={t('insight.feedback.average')}
            value={
              feedback.average === null
                ? t('insight.none')
                : t('insight.feedback.outOf5', { n: format.decimal.format(feedback.average) })
            }
          />
        </dl>
        <p className="hint">{t('insight.summary.note')}</p>
      </section>

      <section className="panel" aria-labelledby="insight-counts">
        <h2 id="insight-counts">{t('insight.counts.title')}</h2>
        <ChartFigure
          summary={t('insight.counts.summary', {
            visits: number.format(totals.visits),
            booked: number.format(totals.booked),
            walkIn: number.format(totals.walk_in),
            served: number.format(totals.served),
          })}
          tableLabel={t('insight.showTable')}
          chart={<BarChart bars={countBars} />}
          table={
            <table className="insight-table">
              <caption>{t('insight.counts.caption', { range: rangeText })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('insight.col.what')}</th>
                  <th scope="col" className="num">
                    {t('insight.col.count')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {counts.map((c) => (
                  <tr key={c.key}>
                    <th scope="row">{t(c.label)}</th>
                    <td className="num">{count(totals[c.key] as number | null)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        />
      </section>

      <section className="panel" aria-labelledby="insight-daily">
        <h2 id="insight-daily">{t('insight.daily.title')}</h2>
        <p className="insight__legend">
          <span className="insight__key insight__key--visits" /> {t('insight.count.visits')}
          <span className="insight__key insight__key--served" /> {t('insight.count.served')}
        </p>
        <ChartFigure
          summary={t('insight.daily.summary', {
            days: number.format(data.daily.length),
            peak: peakDay ? number.format(peakDay.visits) : '0',
            date: peakDay ? day(peakDay.date, FULL_DATE) : rangeText,
          })}
          tableLabel={t('insight.showTable')}
          chart={
            <TrendChart
              points={data.daily}
              firstLabel={day(data.range.from)}
              lastLabel={day(data.range.to)}
              peakLabel={t('insight.daily.peak', {
                n: number.format(peakDay?.visits ?? 0),
              })}
            />
          }
          table={
            <table className="insight-table">
              <caption>{t('insight.daily.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('insight.col.day')}</th>
                  <th scope="col" className="num">
                    {t('insight.count.visits')}
                  </th>
                  <th scope="col" className="num">
                    {t('insight.count.served')}
                  </th>
                  <th scope="col" className="num">
                    {t('insight.col.noShows')}
                  </th>
                  <th scope="col" className="num">
                    {t('insight.wait.median')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.daily.map((d) => (
                  <tr key={d.date}>
                    <th scope="row" className="nowrap">
                      {formatDate(d.date, intlLocale, {
                        weekday: 'short',
                        day: 'numeric',
                        month: 'short',
                      })}
                    </th>
                    <td className="num">{number.format(d.visits)}</td>
                    <td className="num">{number.format(d.served)}</td>
                    <td className="num">{number.format(d.no_shows)}</td>
                    <td className="num">{minutes(d.median_wait_minutes)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        />
      </section>

      <section className="panel" aria-labelledby="insight-heat">
        <h2 id="insight-heat">{t('insight.heat.title')}</h2>
        {data.heat_map.length === 0 ? (
          <p className="empty-state">{t('insight.heat.empty')}</p>
        ) : (
          <ChartFigure
            summary={
              busiest
                ? t('insight.heat.summary', {
                    day: weekdays[busiest.weekday - 1] ?? '',
                    hour: busiest.hour,
                    n: number.format(busiest.arrivals),
                  })
                : t('insight.heat.empty')
            }
            tableLabel={t('insight.showTable')}
            chart={<HeatMap cells={heatCells} hours={hours} weekdays={weekdays} />}
            table={
              <table className="insight-table insight-table--grid">
                <caption>{t('insight.heat.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('insight.col.hour')}</th>
                    {weekdays.map((w) => (
                      <th key={w} scope="col" className="num">
                        {w}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {hours.map((h) => (
                    <tr key={h}>
                      <th scope="row" className="nowrap">
                        {t('insight.heat.hour', { from: h })}
                      </th>
                      {weekdays.map((w, i) => (
                        <td key={w} className="num">
                          {number.format(heatCells.get(`${i + 1}:${h}`) ?? 0)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            }
          />
        )}
      </section>

      <section className="panel" aria-labelledby="insight-counters">
        <h2 id="insight-counters">{t('insight.counters.title')}</h2>
        {data.counters.length === 0 ? (
          <p className="empty-state">{t('insight.counters.empty')}</p>
        ) : (
          <ChartFigure
            summary={t('insight.counters.summary', {
              n: number.format(data.counters.length),
              name: data.counters[0]?.name ?? '',
              served: number.format(data.counters[0]?.served ?? 0),
            })}
            tableLabel={t('insight.showTable')}
            chart={
              <BarChart
                bars={data.counters.map((c) => ({
                  key: c.counter_id,
                  label: `${c.name}${at(c.organization_id)}`,
                  value: c.served,
                  shown: `${number.format(c.served)} · ${minutes(c.median_service_minutes)}`,
                }))}
              />
            }
            table={
              <table className="insight-table">
                <caption>{t('insight.counters.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('insight.col.counter')}</th>
                    <th scope="col" className="num">
                      {t('insight.count.served')}
                    </th>
                    <th scope="col" className="num">
                      {t('insight.service.median')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.counters.map((c) => (
                    <tr key={c.counter_id}>
                      <th scope="row">
                        {c.name}
                        {at(c.organization_id)}
                      </th>
                      <td className="num">{number.format(c.served)}</td>
                      <td className="num">{minutes(c.median_service_minutes)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            }
          />
        )}
      </section>

      <section className="panel" aria-labelledby="insight-services">
        <h2 id="insight-services">{t('insight.services.title')}</h2>
        {data.services.length === 0 ? (
          <p className="empty-state">{t('insight.services.empty')}</p>
        ) : (
          <Breakdown
            caption={t('insight.services.caption')}
            nameHeader={t('insight.col.service')}
            rows={data.services.map((s) => ({ ...s, id: s.service_id, label: serviceName(s) }))}
            format={format}
          />
        )}
      </section>

      {data.by_branch.length > 1 ? (
        <section className="panel" aria-labelledby="insight-branches">
          <h2 id="insight-branches">{t('insight.branches.title')}</h2>
          <Breakdown
            caption={t('insight.branches.caption')}
            nameHeader={t('insight.col.branch')}
            rows={data.by_branch.map((b) => ({
              ...b,
              id: b.organization_id,
              label: branchNames.get(b.organization_id) ?? b.name,
            }))}
            format={format}
          />
        </section>
      ) : null}

      <section className="panel" aria-labelledby="insight-feedback">
        <h2 id="insight-feedback">{t('insight.feedback.title')}</h2>
        {feedback.count === 0 ? (
          <p className="empty-state">{t('insight.feedback.empty')}</p>
        ) : (
          <>
            <p className="insight__average">
              {t('insight.feedback.summary', {
                average: format.decimal.format(feedback.average ?? 0),
                n: number.format(feedback.count),
              })}
            </p>
            <ChartFigure
              summary={t('insight.feedback.distribution')}
              tableLabel={t('insight.showTable')}
              chart={
                <BarChart
                  bars={([5, 4, 3, 2, 1] as const).map((r) => ({
                    key: String(r),
                    label: t('insight.feedback.stars', { n: r }),
                    value: feedback.distribution[r],
                    shown: number.format(feedback.distribution[r]),
                  }))}
                />
              }
              table={
                <table className="insight-table">
                  <caption>{t('insight.feedback.distribution')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('insight.col.rating')}</th>
                      <th scope="col" className="num">
                        {t('insight.col.count')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {([5, 4, 3, 2, 1] as const).map((r) => (
                      <tr key={r}>
                        <th scope="row">{t('insight.feedback.stars', { n: r })}</th>
                        <td className="num">{number.format(feedback.distribution[r])}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              }
            />
            {feedback.comments.length > 0 ? (
              <>
                <h3 className="insight__subtitle">{t('insight.feedback.comments')}</h3>
                <Comments comments={feedback.comments.slice(0, COMMENTS_SHOWN)} day={day} />
                {feedback.comments.length > COMMENTS_SHOWN ? (
                  <details className="insight__more">
                    <summary>
                      {t('insight.feedback.more', {
                        n: number.format(feedback.comments.length - COMMENTS_SHOWN),
                      })}
                    </summary>
                    <Comments comments={feedback.comments.slice(COMMENTS_SHOWN)} day={day} />
                  </details>
                ) : null}
              </>
            ) : null}
          </>
        )}
      </section>

      <section className="panel" aria-labelledby="insight-export">
        <h2 id="insight-export">{t('insight.export.title')}</h2>
        <p className="hint">
          {t('insight.export.lead', {
            zone: zones[0] ? zone(zones[0]) : '',
          })}
        </p>
        <div className="insight__exports">
          <a className="btn btn--secondary" href={insightExportHref('visits', request)} download>
            {t('insight.export.visits')}
          </a>
          <a className="btn btn--secondary" href={insightExportHref('bookings', request)} download>
            {t('insight.export.bookings')}
          </a>
        </div>
      </section>
    </div>
  );
}

/** Customers' words: rendered as text, never as HTML. */
function Comments({
  comments,
  day,
}: {
  comments: InsightResponse['feedback']['comments'];
  day: (date: string) => string;
}) {
  const { t, locale } = useI18n();
  return (
    <ul className="insight__comments">
      {comments.map((c, i) => (
        // Comments have no id of their own; the list is replaced whole, never reordered.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above.
        <li key={i}>
          <p className="insight__comment">{c.comment}</p>
          <p className="cell-sub">
            {t('insight.feedback.stars', { n: c.rating })} · {day(c.date)} ·{' '}
            {localizedText(c.service, c.service_fr, locale)}
          </p>
        </li>
      ))}
    </ul>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="insight__stat">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** Per service or per branch: its bars (visits) and its table. */
function Breakdown({
  caption,
  nameHeader,
  rows,
  format,
}: {
  caption: string;
  nameHeader: string;
  rows: (InsightCounts & {
    id: string;
    label: string;
    median_wait_minutes: number | null;
    median_service_minutes: number | null;
  })[];
  format: Formats;
}) {
  const { t } = useI18n();
  const { number, percent, minutes, count } = format;
  return (
    <ChartFigure
      summary={caption}
      tableLabel={t('insight.showTable')}
      chart={
        <BarChart
          bars={rows.map((r) => ({
            key: r.id,
            label: r.label,
            value: r.visits,
            shown: number.format(r.visits),
          }))}
        />
      }
      table={
        <table className="insight-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{nameHeader}</th>
              <th scope="col" className="num">
                {t('insight.count.visits')}
              </th>
              <th scope="col" className="num">
                {t('insight.count.served')}
              </th>
              <th scope="col" className="num">
                {t('insight.col.noShows')}
              </th>
              <th scope="col" className="num">
                {t('insight.noShowRate')}
              </th>
              <th scope="col" className="num">
                {t('insight.wait.median')}
              </th>
              <th scope="col" className="num">
                {t('insight.service.median')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <th scope="row">{r.label}</th>
                <td className="num">{number.format(r.visits)}</td>
                <td className="num">{number.format(r.served)}</td>
                <td className="num">{count(r.no_show_visits + (r.no_show_bookings ?? 0))}</td>
                <td className="num">
                  {r.no_show_rate === null ? t('insight.none') : percent.format(r.no_show_rate)}
                </td>
                <td className="num">{minutes(r.median_wait_minutes)}</td>
                <td className="num">{minutes(r.median_service_minutes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
