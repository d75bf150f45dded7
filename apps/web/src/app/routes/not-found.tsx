import { useI18n } from '../../i18n/i18n';
import { href, paths } from '../paths';

const TEXTS = {
  page: { title: 'notFound.title', body: 'notFound.body' },
  organization: { title: 'notFound.organization.title', body: 'notFound.organization.body' },
  service: { title: 'notFound.service.title', body: 'notFound.service.body' },
} as const;

/**
 * An unknown page, or an organization or service the API does not know (a stale or mistyped
 * link): said plainly, with the way back to the organizations.
 */
export function NotFound({ what }: { what: 'page' | 'organization' | 'service' }) {
  const { t } = useI18n();
  const texts = TEXTS[what];
  return (
    <div className="container page-section not-found" data-not-found={what}>
      <h1 className="page-title">{t(texts.title)}</h1>
      <p>{t(texts.body)}</p>
      <p className="not-found__actions">
        <a className="btn btn--primary" href={href(paths.organizations.build())}>
          {t('notFound.organizations')}
        </a>
        <a className="btn btn--secondary" href={href(paths.home.build())}>
          {t('notFound.home')}
        </a>
      </p>
    </div>
  );
}

export default function NotFoundRoute() {
  return <NotFound what="page" />;
}
