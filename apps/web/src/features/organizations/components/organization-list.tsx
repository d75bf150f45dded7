import type { Organization } from '@qless/contract';
import { type MouseEvent, useId, useMemo, useState } from 'react';
import { Icon } from '../../../components/ui/icon';
import { SearchField } from '../../../components/ui/search-field';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { useOrganizations } from '../api/get-organizations';
import { filterOrganizations, paginate } from '../lib/filter';
import './organizations.css';

const ORGANIZATIONS_PAGE_SIZE = 12;

interface Props {
  initial?: Organization[] | null;
  hrefFor: (organization: Organization) => string;
  onOpen: (organization: Organization, all: Organization[]) => void;
}

export function OrganizationList({ initial, hrefFor, onOpen }: Props) {
  const { t } = useI18n();
  const state = useOrganizations(initial);
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const headingId = useId();
  const all = state.data ?? [];
  const filtered = useMemo(() => filterOrganizations(all, query), [all, query]);
  const current = paginate(filtered, page, ORGANIZATIONS_PAGE_SIZE);

  const open = (event: MouseEvent<HTMLAnchorElement>, organization: Organization) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    onOpen(organization, all);
  };

  return (
    <section className="container page-section" aria-labelledby={headingId}>
      <h1 id={headingId} className="page-title">
        {t('orgs.title')}
      </h1>
      <SearchField
        label={t('orgs.searchLabel')}
        placeholder={t('orgs.search')}
        value={query}
        onChange={(value) => {
          setQuery(value);
          setPage(1);
        }}
      />
      {state.status === 'loading' ? (
        <Spinner label={t('orgs.loading')} />
      ) : current.items.length === 0 ? (
        <p className="empty-state" role="status">
          {t('orgs.empty')}
        </p>
      ) : (
        <ul className="card-grid org-grid">
          {current.items.map((o) => (
            <li key={o.organization_id}>
              <a className="card org-card" href={hrefFor(o)} onClick={(e) => open(e, o)}>
                <span className="org-card__logo">
                  {o.image_url ? (
                    <img
                      src={o.image_url}
                      alt={t('orgs.logo', { name: o.name })}
                      width={56}
                      height={56}
                      loading="lazy"
                      decoding="async"
                    />
                  ) : (
                    <span aria-hidden="true">{o.name.slice(0, 1)}</span>
                  )}
                </span>
                <span className="org-card__text">
                  <span className="org-card__name">{o.name}</span>
                  <span className="org-card__location">
                    <PinIcon />
                    {o.location}
                  </span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
      <nav className="pagination" aria-label={t('orgs.pagination')}>
        <button
          type="button"
          className="btn btn--secondary"
          disabled={current.page <= 1}
          onClick={() => setPage(current.page - 1)}
        >
          {t('common.previous')}
        </button>
        <span className="pagination__status" aria-live="polite">
          {t('common.page', { page: current.page, total: current.pageCount })}
        </span>
        <button
          type="button"
          className="btn btn--secondary"
          disabled={current.page >= current.pageCount}
          onClick={() => setPage(current.page + 1)}
        >
          {t('common.next')}
        </button>
      </nav>
    </section>
  );
}

function PinIcon() {
  return (
    <Icon size={14}>
      <path d="M12 22s7-6.2 7-12a7 7 0 1 0-14 0c0 5.8 7 12 7 12Z" />
      <circle cx="12" cy="10" r="2.5" />
    </Icon>
  );
}
