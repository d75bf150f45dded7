/**
 * Insight per clerk (decision 139): who served how many and how long, and every call out of
 * turn of the period with its day, clerk, counter, number and reason.
 */
import { INSIGHT_OUT_OF_ORDER_ROWS, type InsightResponse } from '@qless/contract';
import { useI18n } from '../../../i18n/i18n';
import { apiPaths } from '../../../lib/api-paths';
import { formatDate } from '../../../lib/dates';
import { useFormats } from './insight-parts';

const DAY = { day: 'numeric', month: 'short', year: 'numeric' } as const;

export function ClerksPanel({ data }: { data: InsightResponse }) {
  const { t, intlLocale } = useI18n();
  const { number, minutes } = useFormats();
  const zoneOf = new Map(data.branches.map((b) => [b.id, b.time_zone]));
  const time = (iso: string, organizationId: string) =>
    new Intl.DateTimeFormat(intlLocale, {
      hour: '2-digit',
      minute: '2-digit',
      timeZone: zoneOf.get(organizationId) ?? 'UTC',
    }).format(new Date(iso));
  return (
    <>
      <section className="panel" aria-labelledby="insight-clerks">
        <h2 id="insight-clerks">{t('insight.clerks.title')}</h2>
        {data.clerks.length === 0 ? (
          <p className="empty-state">{t('insight.clerks.empty')}</p>
        ) : (
          <div className="insight-table-wrap">
            <table className="insight-table" data-testid="insight-clerks">
              <caption>{t('insight.clerks.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('insight.col.clerk')}</th>
                  <th scope="col" className="num">
                    {t('insight.count.served')}
                  </th>
                  <th scope="col" className="num">
                    {t('insight.service.median')}
                  </th>
                  <th scope="col" className="num">
                    {t('insight.col.outOfTurn')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.clerks.map((c) => (
                  <tr key={`${c.organization_id}:${c.user_id}`}>
                    <th scope="row">{c.name || t('insight.clerks.unnamed')}</th>
                    <td className="num">{number.format(c.served)}</td>
                    <td className="num">{minutes(c.median_service_minutes)}</td>
                    <td className="num">{number.format(c.out_of_order_calls)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="panel" aria-labelledby="insight-jumps">
        <h2 id="insight-jumps">{t('insight.jumps.title')}</h2>
        {data.out_of_order_calls.length === 0 ? (
          <p className="empty-state">{t('insight.jumps.empty')}</p>
        ) : (
          <div className="insight-table-wrap">
            <table className="insight-table" data-testid="insight-jumps">
              <caption>{t('insight.jumps.caption', { max: INSIGHT_OUT_OF_ORDER_ROWS })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('insight.col.day')}</th>
                  <th scope="col">{t('insight.col.clerkCounter')}</th>
                  <th scope="col">{t('insight.col.numberReason')}</th>
                </tr>
              </thead>
              <tbody>
                {data.out_of_order_calls.map((call) => (
                  <tr key={`${call.at}:${call.number}`}>
                    <td>
                      {formatDate(call.date, intlLocale, DAY)} {time(call.at, call.organization_id)}
                    </td>
                    <td>
                      {call.clerk_name ?? t('insight.clerks.unnamed')}
                      {call.counter_name ? ` · ${call.counter_name}` : ''}
                    </td>
                    <td>
                      <strong>{call.number}</strong> · {t(`queue.reason.${call.reason}`)}
                      {call.undone ? ` ${t('insight.jumps.undone')}` : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {/* The day's calls, signed: anyone checks them with the deployment's public key. */}
        <ul className="insight__records">
          {data.branches.map((b) => (
            <li key={b.id}>
              <a
                href={apiPaths.queueCallsRecord({ date: data.range.to, organization_id: b.id })}
                download={`calls-${b.branch_name ?? b.name}-${data.range.to}.json`}
              >
                {t('insight.jumps.record', {
                  branch: b.branch_name ?? b.name,
                  date: formatDate(data.range.to, intlLocale, DAY),
                })}
              </a>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
