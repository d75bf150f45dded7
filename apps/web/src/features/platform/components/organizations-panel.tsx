import type { PlatformOrganization } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { useI18n } from '../../../i18n/i18n';
import { apiErrorKey } from '../../../lib/error-keys';
import { useAsync } from '../../../lib/use-async';
import { listOrganizations, setOrganizationVerified } from '../api/console';
import { ListState } from './shared';

/** A Sunday at UTC noon: weekdays named through Intl, 0 = Sunday. */
const A_SUNDAY = Date.UTC(2026, 2, 1, 12);
const dayName = (day: number, intlLocale: string) =>
  new Intl.DateTimeFormat(intlLocale, { weekday: 'short', timeZone: 'UTC' }).format(
    new Date(A_SUNDAY + day * 86_400_000),
  );
/** Monday first, as people read a week. */
const WEEK_FROM_MONDAY = [1, 2, 3, 4, 5, 6, 0] as const;

/**
 * What the operator checks before verifying (operators once verified blind): the
 * logo, address, hours and days, and every service as customers will read it.
 */
function OrganizationDetails({ org }: { org: PlatformOrganization }) {
  const { t, locale, intlLocale } = useI18n();
  const days = WEEK_FROM_MONDAY.filter((d) => org.open_days.includes(d)).map((d) =>
    dayName(d, intlLocale),
  );
  return (
    <details className="org-details" open={!org.verified}>
      <summary className="console-card__read">{t('platform.orgs.details')}</summary>
      <div className="org-details__profile">
        {org.image_url ? (
          <img
            className="org-details__logo"
            src={org.image_url}
            alt={t('platform.orgs.logo', { name: org.name })}
            width={64}
            height={64}
            loading="lazy"
          />
        ) : (
          <p className="org-details__nologo">{t('platform.orgs.noLogo')}</p>
        )}
        <dl className="org-details__rows">
          <dt>{t('platform.orgs.location')}</dt>
          <dd>{[org.location, org.city].filter(Boolean).join(', ') || '—'}</dd>
          <dt>{t('platform.orgs.hours')}</dt>
          <dd>{t('platform.orgs.hoursValue', { opens: org.opens_at, closes: org.closes_at })}</dd>
          <dt>{t('platform.orgs.days')}</dt>
          <dd>{days.length > 0 ? days.join(', ') : t('platform.orgs.noDays')}</dd>
        </dl>
      </div>
      <h3 className="console-subtitle">
        {t('platform.orgs.services', { n: org.services.length })}
      </h3>
      {org.services.length === 0 ? (
        <p className="console-card__meta">{t('platform.orgs.noServices')}</p>
      ) : (
        <ul className="org-details__services">
          {org.services.map((s) => (
            <li key={s.service_id}>
              <strong>{localizedText(s.service_name, s.service_name_fr, locale)}</strong>{' '}
              <span className="console-card__meta">
                {t('platform.orgs.duration', { minutes: s.duration })}
                {s.active ? '' : ` · ${t('platform.orgs.serviceInactive')}`}
              </span>
              {s.service_description ? (
                <span className="console-card__meta">{s.service_description}</span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}

export function OrganizationsPanel() {
  const { t } = useI18n();
  const [reload, setReload] = useState(0);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const state = useAsync((signal) => listOrganizations(signal), [reload]);

  const toggle = async (org: PlatformOrganization) => {
    setBusy(org.organization_id);
    setError(null);
    try {
      await setOrganizationVerified(org.organization_id, !org.verified);
    } catch (err) {
      setError(t(apiErrorKey(err)));
    } finally {
      setBusy(null);
      setReload((n) => n + 1);
    }
  };

  return (
    <div className="console-panel">
      <div aria-live="polite">{error ? <Alert tone="error">{error}</Alert> : null}</div>
      <ListState state={state}>
        {({ organizations }) =>
          organizations.length === 0 ? (
            <p className="empty-state">{t('platform.orgs.empty')}</p>
          ) : (
            <ul className="console-list">
              {organizations.map((o) => (
                <li key={o.organization_id} className="console-card" data-organization={o.name}>
                  <div className="console-card__head">
                    <strong>
                      {o.name}
                      {o.branch_name ? ` — ${o.branch_name}` : ''}
                    </strong>
                    <span className={`console-tag console-tag--${o.listed ? 'approved' : 'new'}`}>
                      {o.listed ? t('platform.orgs.listed') : t('platform.orgs.notListed')}
                    </span>
                  </div>
                  <div className="console-card__meta">
                    {[o.city, o.category, o.email].filter(Boolean).join(' · ')}
                  </div>
                  <div className="console-card__meta">
                    {o.verified ? t('platform.orgs.verified') : t('platform.orgs.unverified')}
                    {o.active ? '' : ` · ${t('platform.orgs.inactive')}`}
                  </div>
                  {o.missing_fields.length > 0 ? (
                    <div className="console-card__meta console-card__missing">
                      {t('platform.orgs.missing', {
                        fields: o.missing_fields.map((f) => t(`platform.field.${f}`)).join(', '),
                      })}
                    </div>
                  ) : null}
                  <OrganizationDetails org={o} />
                  <div className="console-actions">
                    <button
                      type="button"
                      className={o.verified ? 'btn btn--secondary' : 'btn btn--primary'}
                      disabled={busy !== null}
                      onClick={() => toggle(o)}
                    >
                      {o.verified ? t('platform.orgs.unverify') : t('platform.orgs.verify')}
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </ListState>
    </div>
  );
}
