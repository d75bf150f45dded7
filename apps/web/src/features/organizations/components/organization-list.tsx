import type { Organization } from '@qless/contract';
import { type MouseEvent, useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../../../components/ui/icon';
import { LoadError } from '../../../components/ui/load-error';
import { SearchField } from '../../../components/ui/search-field';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { useOrganizationSearch } from '../api/search-organizations';
import './organizations.css';

/** Typing settles this long before the search runs (one request per pause, not per key). */
export const SEARCH_DEBOUNCE_MS = 300;

interface Props {
  /** The search text and the page (1-based), as the address holds them. */
  query: string;
  page: number;
  /** The search text changed (already debounced): the caller records it, page 1. */
  onSearch: (query: string) => void;
  /** Previous or Next: the caller records the page (`replace`: no new history entry). */
  onPage: (page: number, replace?: boolean) => void;
  hrefFor: (organization: Organization) => string;
  /** An organization was opened; `shown` are the ones on this page, `complete` if that is all. */
  onOpen: (organization: Organization, shown: Organization[], complete: boolean) => void;
}

export function OrganizationList({ query, page, onSearch, onPage, hrefFor, onOpen }: Props) {
  const { t } = useI18n();
  const [text, setText] = useState(query);
  const [reloadKey, setReloadKey] = useState(0);
  const state = useOrganizationSearch(query, page, reloadKey);
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const movedPage = useRef(false);

  // Back/Forward or a shared link changed the query: the box shows it.
  useEffect(() => setText(query), [query]);

  useEffect(() => {
    if (text.trim() === query.trim()) return;
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, query, onSearch]);

  const result = state.data;
  const pageCount = result ? Math.max(1, Math.ceil(result.total / result.pageSize)) : 1;
  // A link to a page past the end (the list got shorter) lands on the last one.
  useEffect(() => {
    if (result && result.total > 0 && page > pageCount) onPage(pageCount, true);
  }, [result, page, pageCount, onPage]);

  // After Previous/Next the reader continues at the top of the list, not at the footer.
  useEffect(() => {
    if (!movedPage.current || state.status === 'loading') return;
    movedPage.current = false;
    const heading = headingRef.current;
    if (!heading) return;
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
  }, [state.status]);

  const goTo = (next: number) => {
    movedPage.current = true;
    onPage(next);
  };

  const open = (event: MouseEvent<HTMLAnchorElement>, organization: Organization) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    const shown = result?.organizations ?? [];
    onOpen(organization, shown, result ? result.total <= shown.length : false);
  };

  return (
    <section className="container page-section" aria-labelledby={headingId}>
      <h1 id={headingId} ref={headingRef} tabIndex={-1} className="page-title org-list__title">
        {t('orgs.title')}
      </h1>
      <SearchField
        label={t('orgs.searchLabel')}
        placeholder={t('orgs.search')}
        value={text}
        onChange={setText}
      />
      {state.status === 'loading' ? (
        <Spinner label={t('orgs.loading')} />
      ) : state.status === 'error' || !result ? (
        <LoadError
          message={t('orgs.loadFailed')}
          retryLabel={t('common.retry')}
          onRetry={() => setReloadKey((k) => k + 1)}
        />
      ) : result.organizations.length === 0 ? (
        <p className="empty-state" role="status">
          {t('orgs.empty')}
        </p>
      ) : (
        <>
          <p className="org-list__count" role="status">
            {query.trim()
              ? t(result.total === 1 ? 'orgs.found.one' : 'orgs.found.other', {
                  n: result.total,
                  q: query.trim(),
                })
              : t(result.total === 1 ? 'orgs.count.one' : 'orgs.count.other', {
                  n: result.total,
                })}
          </p>
          <ul className="card-grid org-grid">
            {result.organizations.map((o) => (
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
                    {(o.branch_count ?? 1) > 1 ? (
                      <span className="org-card__location">
                        <PinIcon />
                        <span>
                          <span className="org-card__branches">
                            {t('orgs.branchCount', { n: o.branch_count ?? 0 })}
                          </span>
                          {o.branch_cities?.length ? ` · ${citiesText(o.branch_cities)}` : null}
                        </span>
                      </span>
                    ) : (
                      <span className="org-card__location">
                        <PinIcon />
                        {o.location}
                      </span>
                    )}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
      <nav className="pagination" aria-label={t('orgs.pagination')}>
        <button
          type="button"
          className="btn btn--secondary"
          disabled={page <= 1 || state.status !== 'success'}
          onClick={() => goTo(Math.min(page, pageCount) - 1)}
        >
          {t('common.previous')}
        </button>
        <span className="pagination__status" aria-live="polite">
          {t('common.page', { page: Math.min(page, pageCount), total: pageCount })}
        </span>
        <button
          type="button"
          className="btn btn--secondary"
          disabled={page >= pageCount || state.status !== 'success'}
          onClick={() => goTo(page + 1)}
        >
          {t('common.next')}
        </button>
      </nav>
    </section>
  );
}

/** The first cities of a card's branches, briefly: "Douala, Yaoundé, Bafoussam +2". */
const CARD_CITIES = 3;
function citiesText(cities: string[]): string {
  const more = cities.length - CARD_CITIES;
  return `${cities.slice(0, CARD_CITIES).join(', ')}${more > 0 ? ` +${more}` : ''}`;
}

function PinIcon() {
  return (
    <Icon size={14}>
      <path d="M12 22s7-6.2 7-12a7 7 0 1 0-14 0c0 5.8 7 12 7 12Z" />
      <circle cx="12" cy="10" r="2.5" />
    </Icon>
  );
}
