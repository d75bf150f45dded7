import { useI18n } from '../../../i18n/i18n';

/** A screen for administrators, reached by desk staff: refused in words, with their way on. */
export function AdminOnly({ todayHref }: { todayHref: string }) {
  const { t } = useI18n();
  return (
    <section className="panel" aria-labelledby="admin-only-title">
      <h1 id="admin-only-title" className="page-title">
        {t('area.adminOnly.title')}
      </h1>
      <p>{t('area.adminOnly.body')}</p>
      <a className="btn btn--primary" href={todayHref}>
        {t('area.adminOnly.today')}
      </a>
    </section>
  );
}
