import type { PublicBranch, PublicBranchesResponse } from '@qless/contract';
import { type MouseEvent, type ReactNode, useId, useMemo } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Icon } from '../../../components/ui/icon';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { isNotFound } from '../../../lib/load-errors';
import type { AsyncState } from '../../../lib/use-async';
import { byDistance, citiesOf, formatDistance, inCity, type WithDistance } from '../lib/distance';
import { type NearMe, useNearMe } from '../lib/use-near-me';
import './branches.css';

interface Props {
  /** The organization and its branches (the route reads them: it also titles the page). */
  state: AsyncState<PublicBranchesResponse>;
  onRetry: () => void;
  /** The city the address filters by ('' for every city). */
  city: string;
  /** The address of the list filtered by `city` (null: every city). */
  hrefForCity: (city: string | null) => string;
  /** A city chip was tapped: the caller records it in the address, in place. */
  onCity: (city: string | null) => void;
  hrefFor: (branch: PublicBranch) => string;
  onOpen: (branch: PublicBranch, head: PublicBranchesResponse['organization']) => void;
  /** The page for an organization the API does not know. */
  notFound: ReactNode;
}

const GEO_ERRORS: Record<Exclude<NearMe['error'], null>, MessageKey> = {
  denied: 'picker.geo.denied',
  unavailable: 'picker.geo.unavailable',
  timeout: 'picker.geo.timeout',
  unsupported: 'picker.geo.unsupported',
};

/** Plain left click on a link: the app navigates itself (other clicks open as the browser does). */
const plainClick = (event: MouseEvent) =>
  !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0);

/**
 * An organization's branches: filtered by city, and sorted by distance when the
 * reader shares the phone's position (measured here, on the phone: no map service). Each
 * branch opens its services.
 */
export function BranchPicker(props: Props) {
  const { t } = useI18n();
  const { state } = props;
  if (isNotFound(state.error)) return props.notFound;
  if (state.status === 'loading') {
    return (
      <div className="container page-section">
        <Spinner label={t('common.loading')} />
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="container page-section">
        <LoadError
          message={t('picker.loadFailed')}
          retryLabel={t('common.retry')}
          onRetry={props.onRetry}
        />
      </div>
    );
  }
  return <Branches {...props} data={state.data} />;
}

function Branches({
  data,
  city,
  hrefForCity,
  onCity,
  hrefFor,
  onOpen,
}: Props & { data: PublicBranchesResponse }) {
  const { t, intlLocale } = useI18n();
  const headingId = useId();
  const citiesId = useId();
  const near = useNearMe();
  const { organization } = data;
  const cities = useMemo(() => citiesOf(data.branches, intlLocale), [data.branches, intlLocale]);
  // The address's city as the list spells it (a link may write "yaounde").
  const chosen = city ? (cities.find((c) => inCity({ city: c }, city, intlLocale)) ?? city) : '';
  const shown: WithDistance<PublicBranch>[] = useMemo(() => {
    const inChosen = chosen
      ? data.branches.filter((b) => inCity(b, chosen, intlLocale))
      : data.branches;
    return near.position
      ? byDistance(inChosen, near.position)
      : inChosen.map((item) => ({ item, km: null }));
  }, [data.branches, chosen, intlLocale, near.position]);

  const n = shown.length;
  const count = chosen
    ? t(n === 1 ? 'picker.inCity.one' : 'picker.inCity.other', { n, city: chosen })
    : t(n === 1 ? 'picker.count.one' : 'picker.count.other', { n });
  const sorted = near.position !== null && shown.some((s) => s.km !== null);

  const chip = (value: string | null, label: string) => {
    const current = (value ?? '') === chosen;
    return (
      <li key={value ?? ''}>
        <a
          className="picker-chip"
          href={hrefForCity(value)}
          aria-current={current ? 'true' : undefined}
          onClick={(event) => {
            if (!plainClick(event)) return;
            event.preventDefault();
            if (!current) onCity(value);
          }}
        >
          {label}
        </a>
      </li>
    );
  };

  return (
    <section className="container page-section picker" aria-labelledby={headingId}>
      <div className="picker__head">
        <span className="picker__logo">
          {organization.image_url ? (
            <img
              src={organization.image_url}
              alt={t('orgs.logo', { name: organization.name })}
              width={56}
              height={56}
              decoding="async"
              // After the first paint, as on the catalogue's cards: on 2G an image asked for
              // before it costs the page's largest paint a round trip (800 ms).
              loading="lazy"
            />
          ) : (
            <span aria-hidden="true">{organization.name.slice(0, 1)}</span>
          )}
        </span>
        <div className="picker__heading">
          <h1 id={headingId} className="page-title picker__title">
            {t('picker.title', { org: organization.name })}
          </h1>
          <p className="page-lead picker__lead">{t('picker.lead')}</p>
        </div>
      </div>

      <div className="picker__tools">
        {cities.length > 1 ? (
          <div className="picker__cities">
            <span id={citiesId} className="picker__label">
              {t('picker.cities')}
            </span>
            <ul className="picker-chips" aria-labelledby={citiesId}>
              {chip(null, t('picker.allCities'))}
              {cities.map((c) => chip(c, c))}
            </ul>
          </div>
        ) : null}
        <div className="picker__near">
          <button
            type="button"
            className="btn btn--secondary picker__near-btn"
            aria-pressed={near.position !== null}
            // Not `disabled` while the phone looks: focus stays on the button it was on.
            aria-disabled={near.locating || undefined}
            onClick={() => {
              if (near.locating) return;
              if (near.position) near.clear();
              else near.locate();
            }}
          >
            <Icon size={18}>
              <circle cx="12" cy="12" r="3" />
              <path d="M12 2v3M12 19v3M2 12h3M19 12h3" />
              <circle cx="12" cy="12" r="7" />
            </Icon>
            {near.locating ? t('picker.locating') : t('picker.nearMe')}
          </button>
          <span className="hint">{t('picker.private')}</span>
        </div>
        {near.error ? <Alert tone="error">{t(GEO_ERRORS[near.error])}</Alert> : null}
      </div>

      <p className="picker__count" role="status">
        {sorted ? t('picker.nearest', { count }) : count}
      </p>
      {n === 0 ? (
        <p className="empty-state">{t('picker.empty')}</p>
      ) : (
        <ul className="card-grid picker-grid">
          {shown.map(({ item, km }) => (
            <li key={item.organization_id}>
              <a
                className="card branch-card"
                href={hrefFor(item)}
                onClick={(event) => {
                  if (!plainClick(event)) return;
                  event.preventDefault();
                  onOpen(item, organization);
                }}
              >
                <span className="branch-card__name">{item.branch_name ?? organization.name}</span>
                <span className="branch-card__place">
                  <span className="branch-card__city">{item.city}</span>
                  <span className="branch-card__address">{item.location}</span>
                </span>
                {sorted ? (
                  <span className={km === null ? 'branch-card__far' : 'branch-card__distance'}>
                    {km === null
                      ? t('picker.unplaced')
                      : t('picker.away', { distance: formatDistance(km, intlLocale) })}
                  </span>
                ) : null}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
