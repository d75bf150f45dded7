/** The pieces Insight's figures are made of: number formats, a stat, a breakdown, comments. */
import type { InsightCounts, InsightResponse } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import { useMemo } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { BarChart, ChartFigure } from './insight-charts';

export interface Formats {
  number: Intl.NumberFormat;
  decimal: Intl.NumberFormat;
  percent: Intl.NumberFormat;
  minutes: (m: number | null) => string;
  count: (n: number | null) => string;
}

/** Numbers, percentages and minutes as the reader's language writes them. */
export function useFormats(): Formats {
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

/** Customers' words: rendered as text, never as HTML. */
export function Comments({
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

export function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="insight__stat">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** Per service or per branch: its bars (visits) and its table. */
export function Breakdown({
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

/** Comments shown at once; the rest (up to the answer's 50) one tap away. */
const COMMENTS_SHOWN = 5;

/** The visitors' word after their visit: the average, the ratings, the latest comments as text. */
export function FeedbackPanel({
  feedback,
  day,
}: {
  feedback: InsightResponse['feedback'];
  day: (date: string) => string;
}) {
  const { t } = useI18n();
  const format = useFormats();
  const { number } = format;
  return (
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
  );
}
