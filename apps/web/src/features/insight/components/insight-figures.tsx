/** Insight's figures: each chart with its table, the feedback and the CSV links. */
import type { InsightCounts, InsightResponse } from '@qless/contract';
import { addDays, localizedText } from '@qless/contract/core';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates';
import { type InsightRequest, insightExportHref } from '../api/get-insight';
import { BarChart, ChartFigure, HeatMap, TrendChart } from './insight-charts';
import { Breakdown, FeedbackPanel, Stat, useFormats } from './insight-parts';

const SHORT_DATE = { day: 'numeric', month: 'short' } as const;
const FULL_DATE = { day: 'numeric', month: 'long', year: 'numeric' } as const;
/** A Monday (1 January 2024), to name the weekdays in the reader's language. */
const A_MONDAY = '2024-01-01';

/** Each covered branch's short name ("Akwa"), or its full one when it has none. */
export function branchLabels(data: Pick<InsightResponse, 'branches'>): Map<string, string> {
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
  // French Excel reads ";" and decimal commas: a French screen gets that file (decision 122).
  const exportFormat = locale === 'fr' ? 'excel-fr' : 'csv';
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

      <FeedbackPanel feedback={feedback} day={day} />

      <section className="panel" aria-labelledby="insight-export">
        <h2 id="insight-export">{t('insight.export.title')}</h2>
        <p className="hint">
          {t('insight.export.lead', {
            zone: zones[0] ? zone(zones[0]) : '',
          })}
        </p>
        <div className="insight__exports">
          <a
            className="btn btn--secondary"
            href={insightExportHref('visits', request, exportFormat)}
            download
          >
            {t('insight.export.visits')}
          </a>
          <a
            className="btn btn--secondary"
            href={insightExportHref('bookings', request, exportFormat)}
            download
          >
            {t('insight.export.bookings')}
          </a>
        </div>
      </section>
    </div>
  );
}
