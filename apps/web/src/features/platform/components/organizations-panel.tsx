import type { PlatformOrganization } from '@qless/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { useI18n } from '../../../i18n/i18n';
import { apiErrorKey } from '../../../lib/error-keys';
import { useAsync } from '../../../lib/use-async';
import { listOrganizations, setOrganizationVerified } from '../api/console';
import { ListState } from './shared';

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
                    <strong>{o.name}</strong>
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
