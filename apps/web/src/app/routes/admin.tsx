import { useI18n } from '../../i18n/i18n';

/** Placeholder chunk for the organization area (admin issue). */
export default function AdminRoute() {
  const { t } = useI18n();
  return (
    <div className="container page-section">
      <p className="empty-state">{t('admin.soon')}</p>
    </div>
  );
}
