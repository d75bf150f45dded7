import { useI18n } from '../../i18n/i18n';

/** Placeholder: the check-in screen ("Today") comes from its own branch and replaces this. */
export default function AdminTodayRoute() {
  const { t } = useI18n();
  return (
    <section aria-labelledby="today-title">
      <h1 id="today-title" className="page-title">
        {t('area.nav.today')}
      </h1>
      <p className="empty-state">{t('admin.soon')}</p>
    </section>
  );
}
