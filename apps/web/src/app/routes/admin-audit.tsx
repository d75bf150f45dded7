import { AuditLog } from '../../features/audit/components/audit-log';
import { WithOrganizationData } from '../../features/organization-admin/components/organization-data';
import { useI18n } from '../../i18n/i18n';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * The audit log of the organization area (decision 032): an admin reads their
 * branches' entries, a branch manager their branch's; times in the organization's zone.
 * Its own chunk within the area.
 */
export default function AdminAuditRoute() {
  const { t } = useI18n();
  useDocumentTitle('audit.title');
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title" className="page-title">
        {t('audit.title')}
      </h1>
      <WithOrganizationData>
        {(data) => <AuditLog scope="organization" timeZone={data.organizationData.time_zone} />}
      </WithOrganizationData>
    </section>
  );
}
