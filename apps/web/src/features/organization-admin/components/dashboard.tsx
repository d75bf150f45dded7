import type { OrganizationDataResponse } from '@qless/contract';
import { localizedServiceName } from '@qless/contract/core';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { pluralOf, STATUS_KEYS } from '../lib/labels';
import { type Notice, NoticeArea } from './notices';
import { ServiceModal } from './service-modal';

type MissingItem = OrganizationDataResponse['organizationData']['missing_fields'][number];

/** The blank fields by name; unconfirmed days have a sentence of their own. */
const FIELD_KEYS: Record<Exclude<MissingItem, 'open_days'>, MessageKey> = {
  name: 'profile.name',
  location: 'profile.location',
  city: 'profile.city',
  category: 'profile.category',
};

/** Statuses worth a word next to a booking of today (a plain confirmed one needs none). */
const SHOWN_STATUSES = new Set(['held', 'checked_in', 'no_show', 'cancelled', 'expired']);

export function Dashboard({
  data,
  links,
  onChanged,
}: {
  data: OrganizationDataResponse;
  links: { profile: string; bookings: string; attention: string };
  onChanged: () => Promise<void>;
}) {
  const { t, locale, intlLocale } = useI18n();
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const org = data.organizationData;
  const { stats } = data;
  const missing = org.missing_fields.flatMap((f) => (f === 'open_days' ? [] : [t(FIELD_KEYS[f])]));
  const daysToConfirm = org.missing_fields.includes('open_days');
  const listFormat = new Intl.ListFormat(intlLocale, { type: 'conjunction' });
  const attentionKey: MessageKey =
    pluralOf(stats.needs_attention, intlLocale) === 'one'
      ? 'dashboard.attention.one'
      : 'dashboard.attention.other';

  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title" className="page-title">
        {t('dashboard.welcome', { org: org.name })}
      </h1>
      <NoticeArea notice={notice} attentionHref={links.attention} />
      {missing.length > 0 || daysToConfirm || !org.verified ? (
        <Alert tone="info">
          <p className="alert__title">{t('dashboard.prompt.title')}</p>
          {missing.length > 0 ? (
            <p>{t('dashboard.prompt.missing', { fields: listFormat.format(missing) })}</p>
          ) : null}
          {daysToConfirm ? <p>{t('dashboard.prompt.days')}</p> : null}
          {org.verified ? null : <p>{t('dashboard.prompt.unverified')}</p>}
          {missing.length > 0 || daysToConfirm ? (
            <p>
              <a href={links.profile}>{t('dashboard.prompt.link')}</a>
            </p>
          ) : null}
        </Alert>
      ) : null}
      {stats.needs_attention > 0 ? (
        <Alert tone="warning">
          <p>
            {t(attentionKey, { n: stats.needs_attention })}{' '}
            <a href={links.attention}>{t('area.flagged.link')}</a>
          </p>
        </Alert>
      ) : null}
      <dl className="stat-grid">
        <div className="stat">
          <dt>{t('dashboard.totalServices')}</dt>
          <dd>{stats.total_services}</dd>
        </div>
        <div className="stat">
          <dt>{t('dashboard.totalBookings')}</dt>
          <dd>{stats.total_bookings}</dd>
        </div>
      </dl>
      <div className="button-row">
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => {
            setNotice(null);
            setAdding(true);
          }}
        >
          {t('dashboard.addService')}
        </button>
        <a className="btn btn--secondary" href={links.bookings}>
          {t('dashboard.viewBookings')}
        </a>
      </div>
      <section className="panel" aria-labelledby="upcoming-title">
        <h2 id="upcoming-title">{t('dashboard.upcoming')}</h2>
        {stats.today.length === 0 ? (
          <p className="hint">{t('dashboard.upcomingEmpty')}</p>
        ) : (
          <ul className="upcoming">
            {stats.today.map((b) => (
              <li key={b.booking_id}>
                <span>
                  <span className="upcoming__who">{b.cus_name}</span>
                  <span className="cell-sub upcoming__service">
                    {localizedServiceName(b, locale)}
                  </span>
                </span>
                <span className="upcoming__when">
                  {t('dashboard.todayAt', { time: b.time })}
                  {SHOWN_STATUSES.has(b.status) ? (
                    <span className="cell-sub">{t(STATUS_KEYS[b.status])}</span>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {adding ? (
        <ServiceModal
          organizationId={org.organization_id}
          onClose={() => setAdding(false)}
          onDone={async ({ change }) => {
            setAdding(false);
            setNotice({
              tone: 'success',
              text: t('serviceForm.added'),
              flagged: change.flagged_bookings,
            });
            await onChanged();
          }}
        />
      ) : null}
    </section>
  );
}
