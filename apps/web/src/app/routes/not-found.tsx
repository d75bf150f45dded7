import { useI18n } from '../../i18n/i18n';
import { href, paths } from '../paths';

export default function NotFoundRoute() {
  const { t } = useI18n();
  return (
    <div className="container page-section">
      <h1 className="page-title">{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <a className="btn btn--primary" href={href(paths.home.build())}>
        {t('notFound.home')}
      </a>
    </div>
  );
}
