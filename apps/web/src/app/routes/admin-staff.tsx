import { useI18n } from '../../i18n/i18n';

/** Placeholder: staff invitations come from their own branch and replace this. */
export default function AdminStaffRoute() {
  const { t } = useI18n();
  return (
    <section aria-labelledby="staff-title">
      <h1 id="staff-title" className="page-title">
        {t('area.nav.staff')}
      </h1>
      <p className="empty-state">{t('admin.soon')}</p>
    </section>
  );
}
