import type { Organization, Service } from '@qless/contract';
import { type MouseEvent, useId, useMemo, useState } from 'react';
import { Icon } from '../../../components/ui/icon';
import { LoadError } from '../../../components/ui/load-error';
import { SearchField } from '../../../components/ui/search-field';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { matchesQuery } from '../../../lib/search';
import { serviceDescription, serviceName } from '../../../lib/service-text';
import { useServices } from '../api/get-services';
import { truncateWords } from '../lib/truncate';
import './services.css';

interface Props {
  orgId: string;
  organization: Organization;
  organizations: Organization[];
  onSwitchOrganization: (organization: Organization) => void;
  hrefFor: (service: Service) => string;
  onOpen: (service: Service) => void;
  /**
   * One branch of several: its name, and the way to the organization's other
   * branches. Absent for a one-place organization.
   */
  branch?: { name: string | null; pickerHref: string; onPicker: () => void } | null;
}

export function ServiceList(props: Props) {
  const { orgId, organization, organizations } = props;
  const { t, locale } = useI18n();
  const [reloadKey, setReloadKey] = useState(0);
  const state = useServices(orgId, reloadKey);
  const [query, setQuery] = useState('');
  const selectId = useId();
  const headingId = useId();
  // Spec 5 searches the name: the one the reader sees, or the other language's.
  const services = useMemo(
    () =>
      (state.data ?? []).filter(
        (s) => matchesQuery(serviceName(s, locale), query) || matchesQuery(s.service_name, query),
      ),
    [state.data, query, locale],
  );
  const orgName = organization.name;
  const options = !organizations.some((o) => o.organization_id === orgId)
    ? [organization, ...organizations]
    : organizations;

  const open = (event: MouseEvent<HTMLAnchorElement>, service: Service) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    props.onOpen(service);
  };

  return (
    <section className="container page-section" aria-labelledby={headingId}>
      <h1 id={headingId} className="page-title">
        {t('services.title', { org: orgName })}
      </h1>
      {props.branch ? (
        <p className="services-branch">
          {props.branch.name ? (
            <span className="services-branch__name">
              {t('services.branch', { branch: props.branch.name })}
            </span>
          ) : null}
          <a
            href={props.branch.pickerHref}
            onClick={(event) => {
              if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              props.branch?.onPicker();
            }}
          >
            {t('services.otherBranches')}
          </a>
        </p>
      ) : null}
      {organization.location ? <p className="page-lead">{organization.location}</p> : null}
      <div className="toolbar">
        <div className="field field--inline">
          <label htmlFor={selectId}>{t('services.orgLabel')}</label>
          <select
            id={selectId}
            className="input"
            value={orgId}
            onChange={(e) => {
              const next = options.find((o) => o.organization_id === e.target.value);
              if (next) props.onSwitchOrganization(next);
            }}
          >
            {options.length === 0 ? <option value={orgId}>{orgName}</option> : null}
            {options.map((o) => (
              <option key={o.organization_id} value={o.organization_id}>
                {o.branch_name ? `${o.name} – ${o.branch_name}` : o.name}
              </option>
            ))}
          </select>
        </div>
        <SearchField
          label={t('services.searchLabel')}
          placeholder={t('services.search')}
          value={query}
          onChange={setQuery}
        />
      </div>
      {state.status === 'loading' ? (
        <Spinner label={t('services.loading', { org: orgName })} />
      ) : state.status === 'error' ? (
        <LoadError
          message={t('services.loadFailed')}
          retryLabel={t('common.retry')}
          onRetry={() => setReloadKey((k) => k + 1)}
        />
      ) : services.length === 0 ? (
        <p className="empty-state" role="status">
          {t('services.empty')}
        </p>
      ) : (
        <ul className="card-grid service-grid">
          {services.map((s) => (
            <li key={s.service_id}>
              <a className="card service-card" href={props.hrefFor(s)} onClick={(e) => open(e, s)}>
                <span className="service-card__name">{serviceName(s, locale)}</span>
                <span className="service-card__desc">
                  {truncateWords(serviceDescription(s, locale))}
                </span>
                <span className="service-card__duration">
                  <Icon size={16}>
                    <circle cx="12" cy="12" r="9" />
                    <path d="M12 7v5l3 2" />
                  </Icon>
                  {t('services.duration', { n: s.duration })}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
